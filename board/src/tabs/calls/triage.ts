import { computed, signal } from '@preact/signals';
import { api, httpStatusOf, messageOf, reasonOf } from '../../app/api.ts';
import { signedOut } from '../../app/session.ts';
import { showTab } from '../../app/shell.tsx';
import { live } from '../../live/board-live.ts';
import { openSheet, putDetail, sheetMark } from '../incidents/store.ts';
import type { CallEntry } from '../../live/entries.ts';
import { urgency } from './order.ts';
import { takeFailure } from './take.ts';
import { callText } from './words.ts';

/**
 * Triage on the calls tab: one row at a time shows its dismiss or attach form (`panel`); rows can be
 * selected to take them together. Outcomes show in the tab's toast (`notice`); failures reuse the
 * take's (`takeFailure`), so "off duty" leads to the time clock the same way.
 */
export const panel = signal<{ id: string; mode: 'dismiss' | 'attach' } | null>(null);
export const busyCall = signal<string | null>(null);
export const notice = signal<{ text: string; sheet?: number } | null>(null);

const picked = signal<ReadonlySet<string>>(new Set());
/**
 * The selected calls that are still open, most urgent first (the list's order, whatever the kind
 * filter shows): calls taken or dismissed elsewhere drop out.
 */
export const selection = computed(() => {
  const open: CallEntry[] = [];
  for (const id of picked.value) {
    const c = live.calls.entry(id).value;
    if (c) open.push(c);
  }
  return open.sort(urgency).map((c) => c.externalId);
});
/** Selected calls still open, whatever the kind filter shows. */
const openSelected = () => [...picked.peek()].filter((id) => live.calls.peek(id) !== undefined);

export function isPicked(id: string) {
  return picked.value.has(id);
}

export function toggle(id: string): void {
  const next = new Set(openSelected());
  if (next.has(id)) next.delete(id);
  else next.add(id);
  picked.value = next;
}

export function clearSelection(): void {
  picked.value = new Set();
}

function failed(id: string, err: unknown): void {
  if (httpStatusOf(err) === 401) signedOut('expired');
  const title = live.calls.peek(id)?.title ?? '';
  takeFailure.value = { id, title, message: messageOf(err), offDuty: reasonOf(err)?.reason === 'off_duty' };
}

async function work(id: string, fn: () => Promise<void>): Promise<void> {
  busyCall.value = id;
  takeFailure.value = null;
  notice.value = null;
  try {
    await fn();
  } catch (err) {
    failed(id, err);
  } finally {
    if (busyCall.peek() === id) busyCall.value = null;
  }
}

/** Dismisses the call with a preset or the dispatcher's own words; the row leaves with the live delta. */
export function dismissCall(id: string, reason: string, shown = reason): Promise<void> {
  const title = live.calls.peek(id)?.title ?? id;
  return work(id, async () => {
    await api.calls.dismiss.mutate({ externalId: id, reason });
    panel.value = null;
    notice.value = { text: callText().discarded(title, shown) };
  });
}

/** Attaches the call to open sheet `number`; the dispatcher stays on the list, the toast leads to the sheet. */
export function attachCall(id: string, number: number): Promise<void> {
  const title = live.calls.peek(id)?.title ?? id;
  return work(id, async () => {
    const asked = sheetMark();
    const { incident } = await api.calls.attach.mutate({ externalId: id, incident: number });
    putDetail(incident, asked);
    panel.value = null;
    notice.value = { text: callText().attached(title, number), sheet: number };
  });
}

/** Takes the selected calls into one sheet, the most urgent first (the list's order), and opens it. */
export function mergeSelected(): Promise<void> {
  const ids = selection.peek();
  return work(ids[0] ?? '', async () => {
    const asked = sheetMark();
    const { incident } = await api.calls.merge.mutate({ externalIds: ids });
    putDetail(incident, asked);
    clearSelection();
    openSheet.value = incident.number;
    showTab('incidents');
  });
}

export function showSheet(n: number): void {
  notice.value = null;
  openSheet.value = n;
  showTab('incidents');
}
