import { computed, effect, signal } from '@preact/signals';
import { api } from './api.ts';
import { access, guild, moduleOn } from './session.ts';
import { onNotice, onSnapshot } from '../live/board-live.ts';
import type { Out } from './types.ts';

export type UnitStatus = Out['units']['statuses']['statuses'][number];

/** The guild's unit status catalogue (code, label, colour, alarm), in display order. */
export const statuses = signal<UnitStatus[]>([]);
export const statusByCode = computed(() => new Map(statuses.value.map((s) => [s.code, s])));

async function load(): Promise<void> {
  const guildId = guild.peek()?.guildId;
  if (!guildId || !moduleOn('dispatch')) return;
  try {
    const { statuses: list } = await api.units.statuses.query();
    if (guild.peek()?.guildId === guildId) statuses.value = list;
  } catch {
    // no right to read it: units show their bare codes
  }
}

/** Loads the catalogue with the guild and again when it changes (`statuses` on the units topic) or after a snapshot. */
export function linkCatalogue(): void {
  effect(() => {
    if (guild.value && access.value) void load();
  });
  onNotice('units', (ops) => {
    if (ops.some((op) => op.op === 'statuses')) void load();
  });
  onSnapshot(() => void load());
}

/** The relative luminance of #111. */
const DARK_TEXT_LUMINANCE = 0.0056;

/** Near-black (#111) or white, whichever reads better on `hex` (WCAG contrast). */
export function textOn(hex: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return '#fff';
  const [r, g, b] = m.slice(1).map((x) => {
    const c = parseInt(x, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  // whichever of the two reads better (WCAG contrast): #111 is not black, so the usual 0.179 split
  // gave dark text on teal (#00838f, 4.2:1) where white reaches 4.6:1
  const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (l + 0.05) / (DARK_TEXT_LUMINANCE + 0.05) > 1.05 / (l + 0.05) ? '#111' : '#fff';
}
