/**
 * Which unit each connected player occupies, as the server knows it: the members of GET /units
 * (read every `rosterMs`, and at once when a client asks), matched to players by their Discord
 * identifier, or by the badge set for them (`setBadge`, looked up once). A player is told their unit
 * (`dispatch-terminal:unit`, a callsign or nil) when it changes, so their game sends positions only
 * while they sit in one. Nothing a client sends names a unit: the server derives it here.
 */
import type { GameBridge } from '../../client-sdk/game.ts';
import { identifiersOf, natives } from './natives.ts';
import type { People } from './people.ts';

type Log = (message: string) => void;

const BADGE_CACHE_MS = 5 * 60_000;

export function createCrews(bridge: () => GameBridge, people: People, log: Log) {
  const unitOfPlayer = new Map<string, string | null>(); // player -> callsign, as last read
  const told = new Map<string, string | null>(); // player -> what their game was told
  const userOfBadge = new Map<string, string | null>(); // badge set by the framework -> user id, for BADGE_CACHE_MS
  let badgesReadAt = Date.now();
  let running: Promise<void> | null = null;
  let lastError: string | null = null;

  async function userIdOf(player: string): Promise<string | null> {
    const badge = people.badgeSetFor(player);
    if (!badge) return identifiersOf(player).find((i) => i.startsWith('discord:'))?.slice('discord:'.length) ?? null;
    if (!userOfBadge.has(badge)) {
      try {
        userOfBadge.set(badge, await people.userIdOf({ badge }));
      } catch {
        userOfBadge.set(badge, null);
      }
    }
    return userOfBadge.get(badge) ?? null;
  }

  async function read() {
    const players = natives.getPlayers().map(String);
    if (!players.length) return;
    if (Date.now() - badgesReadAt > BADGE_CACHE_MS) {
      userOfBadge.clear(); // a badge may have passed to someone else on the board
      badgesReadAt = Date.now();
    }
    let units;
    try {
      units = (await bridge().listUnits()).units;
      if (lastError) log('positions: who occupies which unit is read again');
      lastError = null;
    } catch (err) {
      const e = err as { status?: number; message?: string };
      const message = e.status === 403 ? 'the key may not read GET /units (positions from players need the scope units:unit.ingame_position)' : `${e.status ?? 0} ${e.message}`;
      if (message !== lastError) log(`positions: who occupies which unit is unknown: ${message}`);
      lastError = message;
      return; // what was read last stays until it can be read again
    }
    const unitOfUser = new Map(units.flatMap((u) => u.members.map((m) => [m.userId, u.callsign] as const)));
    for (const p of players) {
      const user = await userIdOf(p);
      const unit = user ? unitOfUser.get(user) ?? null : null;
      unitOfPlayer.set(p, unit);
      if (told.get(p) !== unit) {
        told.set(p, unit);
        natives.emitNet('dispatch-terminal:unit', p, unit);
      }
    }
  }

  return {
    /** The callsign of the unit `player` occupies, or null (also while not known yet). */
    unitOf: (player: number | string) => unitOfPlayer.get(String(player)) ?? null,
    /** Reads the roster now (one read at a time; a call during a read waits for it). */
    refresh(): Promise<void> {
      running ??= read().catch((err) => log(`positions: ${(err as Error).message}`)).finally(() => { running = null; });
      return running;
    },
    /** Their game (re)started: tell it again at the next read. */
    retell: (player: number | string) => told.delete(String(player)),
    forget(player: number | string) {
      unitOfPlayer.delete(String(player));
      told.delete(String(player));
    },
  };
}

export type Crews = ReturnType<typeof createCrews>;
