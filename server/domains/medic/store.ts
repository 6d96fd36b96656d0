import type postgres from 'postgres';
import type { Db } from '../../store/db.ts';
import type { CitizenState, PatientSummary, StateInput, Vitals } from './schema.ts';

type Conn = postgres.ReservedSql<{}> | Db;
/**
 * A fixed statement on `db` as a named prepared statement (a call only binds its parameters),
 * started at once: statements on one connection run in the order of the calls, so a transaction
 * can pipeline them and await them together.
 */
const run = (db: Conn, text: string, params: unknown[]) => (db as postgres.Sql).unsafe(text, params as never[], { prepare: true }).execute();
const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));

// ---- ingest ----

/** One ingest of a guild at a time: duplicate checks across both id tables and file opening stay exact. */
export const lockIngest = (db: Conn, guildId: string) => run(db, 'select pg_advisory_xact_lock(hashtextextended($1, 0))', [`medic:${guildId}`]);

/** Ids of the batch stored before, in either table (an id is unique per guild across all types). */
export async function storedIds(db: Conn, guildId: string, ids: string[]): Promise<Set<string>> {
  const rows = await run(db, `select event_id from medic_events where guild_id = $1 and event_id = any($2::text[])
    union all select event_id from medic_vitals where guild_id = $1 and event_id = any($2::text[])`, [guildId, ids]);
  return new Set(rows.map((r) => r.event_id as string));
}

export interface OpenFile {
  id: number; citizenId: string; name: string | null; openedAt: number; lastEventAt: number;
  /** Injuries not healed, and the newest vital sample, as stored: the ingest builds the file's summary from them and the batch. */
  injuries: number; lastVitals: Vitals | null;
}
export async function openFilesOf(db: Conn, guildId: string, citizens: string[]): Promise<OpenFile[]> {
  const rows = await run(db, `select f.id, f.citizen_id, f.name, f.opened_at, f.last_event_at, ${injuryCount} as injuries, ${lastVitals} as last_vitals
    from medic_files f where f.guild_id = $1 and f.citizen_id = any($2::text[]) and f.closed_at is null`, [guildId, citizens]);
  return rows.map((r) => ({
    id: Number(r.id), citizenId: r.citizen_id, name: r.name, openedAt: Number(r.opened_at), lastEventAt: Number(r.last_event_at),
    injuries: Number(r.injuries), lastVitals: r.last_vitals ?? null,
  }));
}

export async function statesOf(db: Conn, guildId: string, citizens: string[]): Promise<Map<string, CitizenState>> {
  const rows = await run(db, 'select * from medic_citizen_states where guild_id = $1 and citizen_id = any($2::text[])', [guildId, citizens]);
  return new Map(rows.map((r) => [r.citizen_id as string, stateOf(r)!]));
}

export interface InjuryRow {
  fileId: number; injuryId: string; bodyPart: string; kind: string; severity: number; bleeding: number; state: string; addedAt: number; changedAt: number;
}
const toInjury = (r: postgres.Row): InjuryRow => ({
  fileId: Number(r.file_id), injuryId: r.injury_id, bodyPart: r.body_part, kind: r.kind, severity: r.severity, bleeding: r.bleeding,
  state: r.state, addedAt: Number(r.added_at), changedAt: Number(r.changed_at),
});
export async function injuriesOfFiles(db: Conn, guildId: string, fileIds: number[]): Promise<InjuryRow[]> {
  const rows = await run(db, `select file_id, injury_id, body_part, kind, severity, bleeding, state, added_at, changed_at
    from medic_injuries where guild_id = $1 and file_id = any($2::int8[])`, [guildId, fileIds]);
  return rows.map(toInjury);
}

/** `count` fresh file ids (files opened by this batch are inserted with them, after the closes). */
export async function newFileIds(db: Conn, count: number): Promise<number[]> {
  const rows = await run(db, `select nextval(pg_get_serial_sequence('medic_files', 'id')) as id from generate_series(1, $1::int)`, [count]);
  return rows.map((r) => Number(r.id));
}

export interface FileWrite {
  id: number; citizenId: string; name: string | null; openedAt: number; lastEventAt: number; closedAt: number | null; outcome: string | null;
}
/** Touched files that existed: name when newly given, activity, and a close. Runs before `insertFiles` (one open file per citizen). */
export function updateFiles(db: Conn, guildId: string, files: FileWrite[]) {
  return run(db, `update medic_files f set name = coalesce(u.name, f.name), last_event_at = greatest(f.last_event_at, u.last_event_at),
      closed_at = coalesce(u.closed_at, f.closed_at), outcome = coalesce(u.outcome, f.outcome)
    from unnest($2::int8[], $3::text[], $4::int8[], $5::int8[], $6::text[]) as u(id, name, last_event_at, closed_at, outcome)
    where f.guild_id = $1 and f.id = u.id`,
  [guildId, files.map((f) => f.id), files.map((f) => f.name), files.map((f) => f.lastEventAt), files.map((f) => f.closedAt), files.map((f) => f.outcome)]);
}
export function insertFiles(db: Conn, guildId: string, files: FileWrite[]) {
  return run(db, `insert into medic_files (guild_id, id, citizen_id, name, opened_at, last_event_at, closed_at, outcome)
    select $1, * from unnest($2::int8[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::text[])`,
  [guildId, files.map((f) => f.id), files.map((f) => f.citizenId), files.map((f) => f.name), files.map((f) => f.openedAt),
    files.map((f) => f.lastEventAt), files.map((f) => f.closedAt), files.map((f) => f.outcome)]);
}

export interface EventRow { eventId: string; fileId: number | null; citizenId: string; type: string; at: number; data: object }
/** Non-vital events in batch order (their seq follows it). */
export function insertEvents(db: Conn, guildId: string, rows: EventRow[]) {
  return run(db, `insert into medic_events (guild_id, event_id, file_id, citizen_id, type, at, data)
    select $1, r.event_id, r.file_id, r.citizen_id, r.type, r.at, r.data
    from jsonb_to_recordset($2::jsonb) as r(event_id text, file_id bigint, citizen_id text, type text, at bigint, data jsonb)`,
  [guildId, rows.map((r) => ({ event_id: r.eventId, file_id: r.fileId, citizen_id: r.citizenId, type: r.type, at: r.at, data: r.data }))]);
}

/** Column arrays of vital samples, filled by the ingest without an object per row. */
export interface VitalColumns {
  fileId: number[]; eventId: string[]; at: number[];
  heartRate: (number | null)[]; systolic: (number | null)[]; diastolic: (number | null)[]; spo2: (number | null)[];
  respRate: (number | null)[]; temperature: (number | null)[]; gcs: (number | null)[];
}
export const emptyVitals = (): VitalColumns => ({ fileId: [], eventId: [], at: [], heartRate: [], systolic: [], diastolic: [], spo2: [], respRate: [], temperature: [], gcs: [] });
/** All vital samples of a batch in one multi-row insert. */
export function insertVitals(db: Conn, guildId: string, v: VitalColumns) {
  return run(db, `insert into medic_vitals (guild_id, file_id, event_id, at, heart_rate, systolic, diastolic, spo2, resp_rate, temperature, gcs)
    select $1, * from unnest($2::int8[], $3::text[], $4::int8[], $5::int2[], $6::int2[], $7::int2[], $8::int2[], $9::int2[], $10::float4[], $11::int2[])`,
  [guildId, v.fileId, v.eventId, v.at, v.heartRate, v.systolic, v.diastolic, v.spo2, v.respRate, v.temperature, v.gcs]);
}

/** Injuries as they stand after the batch (added or changed). */
export function upsertInjuries(db: Conn, guildId: string, rows: InjuryRow[]) {
  return run(db, `insert into medic_injuries (guild_id, file_id, injury_id, body_part, kind, severity, bleeding, state, added_at, changed_at)
    select $1, * from unnest($2::int8[], $3::text[], $4::text[], $5::text[], $6::int2[], $7::int2[], $8::text[], $9::int8[], $10::int8[])
    on conflict (guild_id, file_id, injury_id) do update set body_part = excluded.body_part, kind = excluded.kind, severity = excluded.severity,
      bleeding = excluded.bleeding, state = excluded.state, added_at = excluded.added_at, changed_at = excluded.changed_at`,
  [guildId, rows.map((r) => r.fileId), rows.map((r) => r.injuryId), rows.map((r) => r.bodyPart), rows.map((r) => r.kind),
    rows.map((r) => r.severity), rows.map((r) => r.bleeding), rows.map((r) => r.state), rows.map((r) => r.addedAt), rows.map((r) => r.changedAt)]);
}

export interface ImageWrite { fileId: number; eventId: string; contentType: string; width: number; height: number; data: Buffer }
export async function insertImage(db: Conn, guildId: string, i: ImageWrite): Promise<number> {
  const [row] = await run(db, `insert into medic_images (guild_id, file_id, event_id, content_type, size, width, height, data)
    values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`, [guildId, i.fileId, i.eventId, i.contentType, i.data.length, i.width, i.height, i.data]);
  return Number(row.id);
}

// ---- summaries ----

const stateColumns = `s.citizen_id as s_citizen_id, s.at as s_at, s.state as s_state, s.health as s_health, s.armor as s_armor,
  s.conscious as s_conscious, s.bleeding as s_bleeding, s.position as s_position, s.name as s_name, s.updated_at as s_updated_at`;
const injuryCount = `(select count(*) from medic_injuries i where i.guild_id = f.guild_id and i.file_id = f.id and i.state <> 'healed')`;
const lastVitals = `(select json_build_object('at', v.at, 'heartRate', v.heart_rate, 'systolic', v.systolic, 'diastolic', v.diastolic, 'spo2', v.spo2,
    'respRate', v.resp_rate, 'temperature', v.temperature, 'gcs', v.gcs)
  from medic_vitals v where v.guild_id = f.guild_id and v.file_id = f.id order by v.at desc limit 1)`;
const summarySelect = `select f.id, f.citizen_id, f.name, f.opened_at, f.closed_at, f.outcome, f.last_event_at, ${stateColumns},
    ${injuryCount} as injuries, ${lastVitals} as last_vitals
  from medic_files f left join medic_citizen_states s on s.guild_id = f.guild_id and s.citizen_id = f.citizen_id`;

export function stateOf(r: postgres.Row, prefix = ''): CitizenState | null {
  const c = (k: string) => r[prefix + k];
  if (c('citizen_id') === null || c('citizen_id') === undefined) return null;
  const pos = c('position');
  return {
    citizenId: c('citizen_id'), at: Number(c('at')), state: c('state'), health: n(c('health')), armor: n(c('armor')),
    conscious: c('conscious') ?? null, bleeding: n(c('bleeding')), position: pos ? { x: pos.x, y: pos.y, z: pos.z } : null,
    name: c('name') ?? null, updatedAt: new Date(c('updated_at')).getTime(),
  };
}

export function toSummary(r: postgres.Row): PatientSummary {
  const state = stateOf(r, 's_');
  return {
    fileId: Number(r.id), citizenId: r.citizen_id, name: r.name ?? state?.name ?? null,
    status: r.closed_at === null ? 'open' : 'closed', outcome: r.outcome ?? null,
    openedAt: Number(r.opened_at), closedAt: n(r.closed_at), lastEventAt: Number(r.last_event_at),
    state, injuries: Number(r.injuries), lastVitals: (r.last_vitals as Vitals | null) ?? null,
  };
}

export async function summariesOf(db: Conn, guildId: string, fileIds: number[]): Promise<PatientSummary[]> {
  const rows = await run(db, `${summarySelect} where f.guild_id = $1 and f.id = any($2::int8[]) order by f.id`, [guildId, fileIds]);
  return rows.map(toSummary);
}

export async function listFiles(db: Db, guildId: string, o: { q: string | null; status: 'open' | 'closed' | 'all'; limit: number; before: number | null }) {
  const rows = await run(db, `${summarySelect}
    where f.guild_id = $1
      and ($2::text = 'all' or ($2 = 'open') = (f.closed_at is null))
      and ($3::text is null or f.citizen_id ilike (replace(replace(replace($3, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
           or coalesce(f.name, s.name, '') ilike ('%' || replace(replace(replace($3, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'))
      and ($4::int8 is null or (f.last_event_at, f.id) < (select c.last_event_at, c.id from medic_files c where c.guild_id = $1 and c.id = $4))
    order by f.last_event_at desc, f.id desc limit $5`, [guildId, o.status, o.q, o.before, o.limit + 1]);
  return rows.map(toSummary);
}

// ---- citizen state ----

/** Last write by game time wins: the row is written only when `at` is newer; the answer is the row as stored after. */
export async function putState(db: Db, guildId: string, s: StateInput): Promise<{ applied: boolean; row: postgres.Row }> {
  const [written] = await run(db, `insert into medic_citizen_states (guild_id, citizen_id, at, state, health, armor, conscious, bleeding, position, name)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10)
    on conflict (guild_id, citizen_id) do update set at = excluded.at, state = excluded.state, health = excluded.health, armor = excluded.armor,
      conscious = excluded.conscious, bleeding = excluded.bleeding, position = excluded.position, name = excluded.name, updated_at = now()
      where medic_citizen_states.at < excluded.at
    returning *`, [guildId, s.id, s.at, s.state, s.health ?? null, s.armor ?? null, s.conscious ?? null, s.bleeding ?? null, s.position ?? null, s.name ?? null]);
  if (written) return { applied: true, row: written };
  const [kept] = await run(db, 'select * from medic_citizen_states where guild_id = $1 and citizen_id = $2', [guildId, s.id]);
  return { applied: false, row: kept };
}

export async function openFileIdsOf(db: Db, guildId: string, citizenId: string): Promise<number[]> {
  const rows = await run(db, 'select id from medic_files where guild_id = $1 and citizen_id = $2 and closed_at is null', [guildId, citizenId]);
  return rows.map((r) => Number(r.id));
}
