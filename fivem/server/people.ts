/**
 * Who an export means: `{ badge = 7 }`, `{ player = <server id> }` or `{ userId = "<discord id>" }`.
 * A player is known by the badge your framework set (`setBadge`), else by their Discord identifier
 * (`discord:<id>`: the same person the board knows); the server is asked only when needed.
 */
import type { GameBridge } from '../../client-sdk/game.ts';
import { identifiersOf } from './natives.ts';
import { ExportError } from './results.ts';

export type Who = { badge: string | number } | { player: number | string } | { userId: string };

const BADGE = /^\d{1,10}$/;

export function createPeople(bridge: () => GameBridge) {
  const badges = new Map<string, string>(); // player source -> badge, set by the framework

  function parse(who: unknown): Who {
    if (who && typeof who === 'object') {
      const w = who as Record<string, unknown>;
      if ((typeof w.badge === 'string' || typeof w.badge === 'number') && BADGE.test(String(w.badge))) return { badge: w.badge };
      if ((typeof w.player === 'number' || typeof w.player === 'string') && /^\d{1,10}$/.test(String(w.player))) return { player: w.player };
      if (typeof w.userId === 'string' && /^[0-9A-Za-z_-]{1,64}$/.test(w.userId)) return { userId: w.userId };
    }
    throw new ExportError('who must be { badge = <digits> }, { player = <server id> } or { userId = "<discord id>" }');
  }

  function discordOf(player: number | string): string {
    const id = identifiersOf(player).find((i) => i.startsWith('discord:'));
    if (!id) throw new ExportError(`player ${player} has no Discord identifier (is Discord running?) and no badge set by setBadge`, 404, 'not_found');
    return id.slice('discord:'.length);
  }

  return {
    parse,
    setBadge(player: unknown, badge: unknown) {
      if (!(typeof player === 'number' || typeof player === 'string')) throw new ExportError('player must be a server id');
      if (badge === null || badge === undefined || badge === false) return void badges.delete(String(player));
      if (!BADGE.test(String(badge))) throw new ExportError('badge must be digits');
      badges.set(String(player), String(Number(badge)).padStart(2, '0'));
    },
    forget: (player: number | string) => badges.delete(String(player)),
    badgeSetFor: (player: number | string) => badges.get(String(player)) ?? null,
    /** The badge of whoever `who` names (asks the server for a player or user id without one set). */
    async badgeOf(raw: unknown): Promise<string> {
      const who = parse(raw);
      if ('badge' in who) return String(who.badge);
      if ('player' in who && badges.has(String(who.player))) return badges.get(String(who.player))!;
      const userId = 'player' in who ? discordOf(who.player) : who.userId;
      const person = await bridge().lookupPlayer({ userId });
      if (!person.badgeNumber) throw new ExportError(`${person.nickname} has no badge number`, 409, 'conflict');
      return person.badgeNumber;
    },
    /** The chat-platform user id of whoever `who` names. */
    async userIdOf(raw: unknown): Promise<string> {
      const who = parse(raw);
      if ('userId' in who) return who.userId;
      if ('player' in who && !badges.has(String(who.player))) return discordOf(who.player);
      const badge = 'badge' in who ? who.badge : badges.get(String((who as { player: string }).player))!;
      return (await bridge().lookupPlayer({ badge })).userId;
    },
  };
}

export type People = ReturnType<typeof createPeople>;
