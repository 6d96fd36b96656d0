/**
 * The dispatcher's alarm to the crew in the game: polls the unit alarms through the SDK bridge
 * (`watchAlarms`) and sends each to the players of the alarmed unit's crew
 * (`dispatch-terminal:alarm`: keyword, priority, address, waypoint), and `dispatch-terminal:cleared`
 * when it is over. A player belongs to the crew by their Discord identifier or the badge set for them.
 */
import type { AlarmWatch, GameAlarm, GameBridge } from '../../client-sdk/game.ts';
import { identifiersOf, natives } from './natives.ts';
import type { People } from './people.ts';

type Log = (message: string) => void;

export function alarmsToCrews(bridge: GameBridge, people: People, pollMs: number, log: Log): AlarmWatch {
  let lastError: string | null = null;
  const playersOf = (crew: GameAlarm['crew']) => {
    const users = new Set(crew.map((m) => m.userId));
    const badges = new Set(crew.map((m) => m.badge).filter(Boolean));
    return natives.getPlayers().filter((p) => {
      const discord = identifiersOf(p).find((i) => i.startsWith('discord:'));
      return (discord && users.has(discord.slice('discord:'.length))) || badges.has(people.badgeSetFor(p) ?? '');
    });
  };
  return bridge.watchAlarms({ intervalMs: pollMs })
    .on('alarm', (a) => {
      lastError = null;
      const players = playersOf(a.crew);
      const shown = {
        callsign: a.callsign, number: a.incident.number, keyword: a.incident.keyword, priority: a.incident.priority,
        address: a.address, message: a.incident.message, units: a.incident.units.map((u) => u.callsign), waypoint: a.waypoint,
      };
      for (const p of players) natives.emitNet('dispatch-terminal:alarm', p, shown);
      log(`alarm ${a.callsign}: Einsatz ${a.incident.number} ${a.incident.keyword} -> ${players.length} player(s)`);
    })
    .on('cleared', (c) => natives.emitNet('dispatch-terminal:cleared', -1, c))
    .on('error', (err) => {
      if (lastError !== err.message) log(`alarms not read: ${err.message} (trying again)`);
      lastError = err.message;
    });
}
