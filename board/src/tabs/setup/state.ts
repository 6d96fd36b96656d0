import { effect, signal } from '@preact/signals';
import { api } from '../../app/api.ts';
import { access, can, guild } from '../../app/session.ts';

export type Seedable = Awaited<ReturnType<typeof api.onboarding.seedable.query>>;
export type SeedResult = Awaited<ReturnType<typeof api.onboarding.seed.mutate>>;
export type AreaId = Seedable['areas'][number]['area'];

/** The last answer of `onboarding.seedable` for the open guild (null: not loaded), and a load failure's message. */
export const seedable = signal<Seedable | null>(null);
export const seedableError = signal('');

/**
 * The areas whose emptiness makes a guild "new": without them nobody can work an evening. Not the
 * statuses: a guild is created with the default FMS catalogue.
 */
const core: readonly string[] = ['ranks', 'units', 'letterheads'];

let loads = 0;

export async function loadSeedable(): Promise<Seedable | null> {
  const g = guild.peek();
  if (!g) return null;
  const mine = ++loads;
  try {
    const r = await api.onboarding.seedable.query({ guildId: g.guildId });
    if (mine !== loads) return null;
    seedable.value = r;
    seedableError.value = '';
    return r;
  } catch (err) {
    if (mine === loads) seedableError.value = err instanceof Error ? err.message : String(err);
    return null;
  }
}

/** True when every core area (ranks, units, letterheads) is still empty. */
export function isNewGuild(s: Seedable): boolean {
  return s.areas.filter((a) => core.includes(a.area)).every((a) => a.empty);
}

let offeredFor: string | null = null;

/**
 * Offers the wizard: once per opened guild, when the person may set it up (settings.manage) and the
 * guild is new, the board opens on Einrichtung instead of Übersicht — unless the address already
 * names another tab (a bookmark, a reload).
 */
effect(() => {
  const g = guild.value;
  if (!g || !access.value || offeredFor === g.guildId) return;
  offeredFor = g.guildId;
  seedable.value = null;
  if (!can('settings.manage')) return;
  void loadSeedable().then((s) => {
    const hash = location.hash.slice(1);
    if (s && isNewGuild(s) && guild.peek()?.guildId === g.guildId && (hash === '' || hash === 'overview')) location.hash = 'setup';
  });
});
