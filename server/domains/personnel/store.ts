import type { Db } from '../../store/db.ts';

/** A person as the personnel routes answer it (rank by id and name, duty from the open shift). */
export interface PersonRow {
  userId: string; nickname: string; badge: string | null; rankId: string | null; rank: string | null;
  orgUnit: string | null; isAdmin: boolean; onDuty: boolean; createdAt: Date;
}

const personColumns = (db: Db) => db`
  p.user_id, p.nickname, p.badge, p.rank_id, r.name as rank, p.org_unit, p.is_admin, p.created_at,
  exists (select 1 from shifts s where s.guild_id = p.guild_id and s.user_id = p.user_id and s.clock_out_at is null) as on_duty`;

export async function people(db: Db, guildId: string): Promise<PersonRow[]> {
  const rows = await db`select ${personColumns(db)} from people p
    left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
    where p.guild_id = ${guildId} order by r.position desc nulls last, lower(p.nickname), p.user_id`;
  return rows.map(toPerson);
}

export async function personByUserId(db: Db, guildId: string, userId: string): Promise<PersonRow | null> {
  const [row] = await db`select ${personColumns(db)} from people p
    left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
    where p.guild_id = ${guildId} and p.user_id = ${userId}`;
  return row ? toPerson(row) : null;
}

export async function personByBadge(db: Db, guildId: string, badge: string): Promise<PersonRow | null> {
  const [row] = await db`select ${personColumns(db)} from people p
    left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
    where p.guild_id = ${guildId} and p.badge = ${badge}`;
  return row ? toPerson(row) : null;
}

/** The person's row, locked for this transaction (rank changes of one person are serialised here). */
export async function lockPerson(db: Db, guildId: string, who: { userId: string } | { badge: string }): Promise<PersonRow | null> {
  const userId = 'userId' in who ? who.userId : null;
  const badge = 'badge' in who ? who.badge : null;
  const [row] = await db`select ${personColumns(db)} from people p
    left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
    where p.guild_id = ${guildId} and (p.user_id = ${userId} or p.badge = ${badge})
    for update of p`;
  return row ? toPerson(row) : null;
}

export interface NewPerson { userId: string; nickname: string; badge: string | null; rankId: string | null; orgUnit: string | null; isAdmin: boolean }

/** Adds a person; false when the user id or the badge is already taken in this guild. */
export async function insertPerson(db: Db, guildId: string, p: NewPerson): Promise<boolean> {
  const rows = await db`insert into people (guild_id, user_id, nickname, badge, rank_id, org_unit, is_admin)
    values (${guildId}, ${p.userId}, ${p.nickname}, ${p.badge}, ${p.rankId}, ${p.orgUnit}, ${p.isAdmin})
    on conflict do nothing returning user_id`;
  return rows.length > 0;
}

export async function userIdTaken(db: Db, guildId: string, userId: string): Promise<boolean> {
  const rows = await db`select 1 from people where guild_id = ${guildId} and user_id = ${userId}`;
  return rows.length > 0;
}

export interface PersonChanges { nickname?: string; badge?: string | null; rankId?: string | null; orgUnit?: string | null; isAdmin?: boolean }

/** Writes the given fields (absent = unchanged). A taken badge raises unique violation `people_guild_id_badge_key`. */
export async function updatePerson(db: Db, guildId: string, userId: string, c: PersonChanges): Promise<void> {
  await db`update people set
      nickname = case when ${c.nickname !== undefined} then ${c.nickname ?? null}::text else nickname end,
      badge    = case when ${c.badge !== undefined} then ${c.badge ?? null}::text else badge end,
      rank_id  = case when ${c.rankId !== undefined} then ${c.rankId ?? null}::text else rank_id end,
      org_unit = case when ${c.orgUnit !== undefined} then ${c.orgUnit ?? null}::text else org_unit end,
      is_admin = case when ${c.isAdmin !== undefined} then ${c.isAdmin ?? false}::boolean else is_admin end
    where guild_id = ${guildId} and user_id = ${userId}`;
}

/**
 * The guild's admins, locked in user-id order: taking an admin flag locks this set before the
 * person's row, so two admins taking each other's flag at once queue up instead of deadlocking.
 */
export async function lockAdmins(db: Db, guildId: string): Promise<string[]> {
  const rows = await db`select user_id from people where guild_id = ${guildId} and is_admin order by user_id for update`;
  return rows.map((r) => r.user_id as string);
}

export interface RankRef { id: string; name: string; position: number; capabilities: string[] }

export async function rankByIdOrName(db: Db, guildId: string, idOrName: string): Promise<RankRef | null> {
  const [row] = await db`select id, name, position, capabilities from ranks
    where guild_id = ${guildId} and (id = ${idOrName} or lower(name) = lower(${idOrName}))
    order by (id = ${idOrName}) desc limit 1`;
  return row ? { id: row.id, name: row.name, position: row.position, capabilities: row.capabilities } : null;
}

export async function rankById(db: Db, guildId: string, id: string): Promise<RankRef | null> {
  const [row] = await db`select id, name, position, capabilities from ranks where guild_id = ${guildId} and id = ${id}`;
  return row ? { id: row.id, name: row.name, position: row.position, capabilities: row.capabilities } : null;
}

// ---- History --------------------------------------------------------------------------------

export interface NewHistoryEntry {
  userId: string; kind: string; text: string; fromRank?: string | null; toRank?: string | null;
  byKind: string; byId: string;
}

export async function insertHistory(db: Db, guildId: string, e: NewHistoryEntry): Promise<HistoryRow> {
  const [row] = await db`
    with written as (
      insert into personnel_history (guild_id, user_id, kind, text, from_rank, to_rank, by_kind, by_id)
      values (${guildId}, ${e.userId}, ${e.kind}, ${e.text}, ${e.fromRank ?? null}, ${e.toRank ?? null}, ${e.byKind}, ${e.byId})
      returning *
    )
    select ${historyColumns(db)} from written h`;
  return toHistory(row);
}

export interface HistoryRow {
  id: string; userId: string; kind: string; text: string; fromRank: string | null; toRank: string | null;
  byKind: string; byId: string; byName: string | null; at: Date;
}

const historyColumns = (db: Db) => db`
  h.id::text as id, h.user_id, h.kind, h.text, h.from_rank, h.to_rank, h.by_kind, h.by_id, h.at,
  case h.by_kind
    when 'session' then (select nickname from people b where b.guild_id = h.guild_id and b.user_id = h.by_id)
    when 'key' then (select name from api_keys k where k.guild_id = h.guild_id and k.id::text = h.by_id)
  end as by_name`;

/** Newest first; `before` (an entry id) pages further back. */
export async function history(db: Db, guildId: string, userId: string, limit: number, before: string | null): Promise<HistoryRow[]> {
  const rows = await db`select ${historyColumns(db)} from personnel_history h
    where h.guild_id = ${guildId} and h.user_id = ${userId} and (${before}::bigint is null or h.id < ${before}::bigint)
    order by h.id desc limit ${limit}`;
  return rows.map(toHistory);
}

// ---- Own activity ---------------------------------------------------------------------------

export async function shiftTotals(db: Db, guildId: string, userId: string) {
  const [row] = await db`
    select count(*) filter (where clock_out_at is not null)::int as shift_count,
      coalesce(sum(extract(epoch from clock_out_at - clock_in_at) * 1000), 0)::float8 as total_ms,
      coalesce(sum(extract(epoch from clock_out_at - clock_in_at) * 1000) filter (where clock_in_at > now() - interval '7 days'), 0)::float8 as last7_ms,
      coalesce(sum(extract(epoch from clock_out_at - clock_in_at) * 1000) filter (where clock_in_at > now() - interval '30 days'), 0)::float8 as last30_ms,
      max(clock_in_at) filter (where clock_out_at is null) as open_since,
      min(clock_in_at) as first_at
    from shifts where guild_id = ${guildId} and user_id = ${userId}`;
  return {
    shiftCount: row.shift_count as number,
    totalMs: Math.round(row.total_ms), last7DaysMs: Math.round(row.last7_ms), last30DaysMs: Math.round(row.last30_ms),
    openSince: (row.open_since as Date | null) ?? null, firstAt: (row.first_at as Date | null) ?? null,
  };
}

export async function lastShifts(db: Db, guildId: string, userId: string, limit: number) {
  const rows = await db`select clock_in_at, clock_out_at, status from shifts
    where guild_id = ${guildId} and user_id = ${userId} and clock_out_at is not null
    order by clock_in_at desc limit ${limit}`;
  return rows.map((r) => ({
    clockInAt: r.clock_in_at as Date, clockOutAt: r.clock_out_at as Date, status: r.status as 'CLOSED' | 'AUTO_CLOSED',
    durationMs: Math.max(0, (r.clock_out_at as Date).getTime() - (r.clock_in_at as Date).getTime()),
  }));
}

// ---- Live ------------------------------------------------------------------------------------

/**
 * Takes the guild's event-stream row lock now instead of at commit. Every writing transaction of
 * the guild takes that lock at commit, so what this transaction reads afterwards includes every
 * event committed before it, and every later event gets a higher seq: ops built from those reads
 * apply on top of a state that already holds them.
 */
export async function lockEventStream(db: Db, guildId: string): Promise<void> {
  await db`select 1 from event_streams where guild_id = ${guildId} for update`;
}

export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: string; constraint_name?: string };
  return e?.code === '23505' && e.constraint_name === constraint;
}

export function isForeignKeyViolation(err: unknown): boolean {
  return (err as { code?: string })?.code === '23503';
}

function toPerson(r: Record<string, any>): PersonRow {
  return {
    userId: r.user_id, nickname: r.nickname, badge: r.badge ?? null, rankId: r.rank_id ?? null, rank: r.rank ?? null,
    orgUnit: r.org_unit ?? null, isAdmin: r.is_admin, onDuty: r.on_duty, createdAt: r.created_at,
  };
}

function toHistory(r: Record<string, any>): HistoryRow {
  return {
    id: r.id, userId: r.user_id, kind: r.kind, text: r.text, fromRank: r.from_rank ?? null, toRank: r.to_rank ?? null,
    byKind: r.by_kind, byId: r.by_id, byName: r.by_name ?? null, at: r.at,
  };
}
