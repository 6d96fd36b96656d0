import { effect, signal } from '@preact/signals';
import { api } from '../../app/api.ts';
import { access, guild, moduleOn } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { onNotice, onSnapshot } from '../../live/board-live.ts';

export type UnitType = Out['aao']['unitTypes']['types'][number];
export type AaoKeyword = Out['aao']['keywords']['keywords'][number];

/** The guild's AAO catalogue on the board: unit types and keywords, reloaded on every `aao` notice. */
export const unitTypes = signal<UnitType[]>([]);
export const aaoKeywords = signal<AaoKeyword[]>([]);
/** Bumps on every `aao` notice: views built from the catalogue (a sheet's proposal) load afresh. */
export const aaoRevision = signal(0);

async function load(): Promise<void> {
  const guildId = guild.peek()?.guildId;
  if (!guildId) return;
  const [types, keywords] = await Promise.all([
    moduleOn('dispatch') ? api.aao.unitTypes.query().catch(() => null) : null,
    moduleOn('incidents') ? api.aao.keywords.query().catch(() => null) : null,
  ]);
  if (guild.peek()?.guildId !== guildId) return;
  unitTypes.value = types?.types ?? [];
  aaoKeywords.value = keywords?.keywords ?? [];
}

let linked = false;
/** Loads the catalogue once it is wanted (the editor opened) and keeps it current. */
export function linkAao(): void {
  if (linked) return;
  linked = true;
  effect(() => {
    if (guild.value && access.value) void load();
  });
  onNotice('units', (ops) => {
    if (ops.some((op) => op.op === 'aao')) {
      aaoRevision.value++;
      void load();
    }
  });
  onSnapshot(() => void load());
}

/** Puts a saved (or drops a deleted) keyword into the list at once; the notice reloads the truth. */
export function keywordLocally(id: string, saved: AaoKeyword | null): void {
  const rest = aaoKeywords.peek().filter((k) => k.id !== id);
  aaoKeywords.value = (saved ? [...rest, saved] : rest).sort((a, b) => a.keyword.localeCompare(b.keyword, 'de', { sensitivity: 'base' }));
}
