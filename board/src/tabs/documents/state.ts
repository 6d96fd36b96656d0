import { signal } from '@preact/signals';
import { api } from '../../app/api.ts';
import { decimal } from '../../app/i18n.ts';
import { onNotice, onSnapshot } from '../../live/board-live.ts';

export type Upload = Awaited<ReturnType<typeof api.uploads.list.query>>['uploads'][number];
export type Letterhead = Awaited<ReturnType<typeof api.letterheads.list.query>>['letterheads'][number];

/** The guild's uploads and letterheads as last loaded (null: not loaded yet), and a load failure's message. */
export const uploads = signal<Upload[] | null>(null);
export const letterheads = signal<Letterhead[] | null>(null);
export const uploadsError = signal('');
export const letterheadsError = signal('');

let uploadsLoad = 0;
let letterheadsLoad = 0;

/** Loads the uploads; of overlapping loads only the last one's answer is kept. */
export async function loadUploads(): Promise<void> {
  const mine = ++uploadsLoad;
  try {
    const r = await api.uploads.list.query();
    if (mine === uploadsLoad) { uploads.value = r.uploads; uploadsError.value = ''; }
  } catch (err) {
    if (mine === uploadsLoad) uploadsError.value = err instanceof Error ? err.message : String(err);
  }
}

export async function loadLetterheads(): Promise<void> {
  const mine = ++letterheadsLoad;
  try {
    const r = await api.letterheads.list.query();
    if (mine === letterheadsLoad) { letterheads.value = r.letterheads; letterheadsError.value = ''; }
  } catch (err) {
    if (mine === letterheadsLoad) letterheadsError.value = err instanceof Error ? err.message : String(err);
  }
}

/**
 * While the tab is open: loads both lists, and again on every notice of their topics (`uploads`,
 * `letterheads`: another session or client changed them) and after a snapshot (notices were missed).
 * Returns the unlink.
 */
export function linkDocumentsLive(withUploads: boolean, withLetterheads: boolean): () => void {
  const load = () => { if (withUploads) void loadUploads(); if (withLetterheads) void loadLetterheads(); };
  load();
  const offs = [
    // A deleted upload clears the logo of letterheads that showed it (their preview changes too).
    withUploads ? onNotice('uploads', (ops) => { void loadUploads(); if (withLetterheads && ops.some((op) => op.op === 'delete')) void loadLetterheads(); }) : () => {},
    withLetterheads ? onNotice('letterheads', () => void loadLetterheads()) : () => {},
    onSnapshot(load),
  ];
  return () => { for (const off of offs) off(); };
}

/** 1,2 MB / 340 KB / 812 B */
export function fileSize(bytes: number, lang: 'de' | 'en'): string {
  const fmt = (n: number) => decimal(n, 1, lang);
  if (bytes >= 1024 * 1024) return `${fmt(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${fmt(bytes / 1024)} KB`;
  return `${bytes} B`;
}
