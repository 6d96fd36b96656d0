import type { Database, Sql } from '../../server/store/db.ts';
import { insertPerson, insertRank } from '../../server/domains/people/store.ts';
import { loadGuildSnapshot } from '../../server/hub/snapshot.ts';
import { seedGuild, signIn, type PersonSpec } from '../helpers/fixtures.ts';

/** Like the fixtures' PersonSpec; badges may be numbers. */
export type WorldPerson = Omit<PersonSpec, 'badge'> & { badge?: string | number | null };

/**
 * A guild for the dispatch-centre tests: the fixture ranks (crew, dispatch, none) plus
 * `leit` (dispatch.view, dispatch.manage, units.manage, timeclock.own.use), `viewer` (dispatch.view)
 * and `setup` (settings.manage).
 */
export async function seedWorld(sql: Sql, guildId: string, people: WorldPerson[]): Promise<void> {
  await seedGuild(sql, guildId, []);
  await insertRank(sql, guildId, { id: 'leit', name: 'Leitstelle', position: 3, capabilities: ['timeclock.own.use', 'dispatch.view', 'dispatch.manage', 'units.manage'] });
  await insertRank(sql, guildId, { id: 'viewer', name: 'Viewer', position: 4, capabilities: ['dispatch.view'] });
  await insertRank(sql, guildId, { id: 'setup', name: 'Setup', position: 5, capabilities: ['settings.manage'] });
  for (const p of people) {
    await insertPerson(sql, guildId, {
      userId: p.userId, nickname: p.nickname,
      badge: p.badge === undefined || p.badge === null ? null : String(Number(p.badge)).padStart(2, '0'),
      rankId: p.rank ?? null, isAdmin: !!p.admin,
    });
  }
}

export async function sessions<K extends string>(server: { url: string; sql: Sql }, guildId: string, ids: Record<K, string>) {
  const out = {} as Record<K, { cookie: string; guildId: string }>;
  for (const [name, userId] of Object.entries(ids) as [K, string][]) out[name] = await signIn(server, guildId, userId);
  return out;
}

/** The hot-topic state as the hub would load it from PostgreSQL right now. */
export async function dbSnapshot(db: Database, guildId: string) {
  return (await loadGuildSnapshot(db, guildId)).states;
}

/** Audit rows of an action in a guild, oldest first. */
export async function auditRows(sql: Sql, guildId: string, action: string) {
  return sql`select actor_kind, actor_id, data from audit_log where guild_id = ${guildId} and action = ${action} order by id`;
}

/** Topics of the guild's events published after `from` (an index into server.events). */
export function topicsSince(events: { guildId: string; deltas: object }[], guildId: string, from: number): string[][] {
  return events.slice(from).filter((e) => e.guildId === guildId).map((e) => Object.keys(e.deltas).sort());
}

export const FMS = [
  { code: '1', label: 'Einsatzbereit über Funk', alarm: false },
  { code: '2', label: 'Einsatzbereit auf Wache', alarm: false },
  { code: '3', label: 'Einsatz übernommen', alarm: false },
  { code: '4', label: 'Am Einsatzort', alarm: false },
  { code: '5', label: 'Sprechwunsch', alarm: false },
  { code: '6', label: 'Nicht einsatzbereit', alarm: false },
  { code: '7', label: 'Patient aufgenommen', alarm: false },
  { code: '8', label: 'Am Zielort', alarm: false },
  { code: '0', label: 'Notruf/priorisierter Sprechwunsch', alarm: true },
  { code: 'A', label: 'Alarmiert', alarm: true },
];
