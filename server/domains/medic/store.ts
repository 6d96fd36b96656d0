import type postgres from 'postgres';
import type { Db } from '../../store/db.ts';
import { isoTime, type CitizenState, type PatientSummary, type StateInput, type Vitals } from './schema.ts';

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

/*
 * Inside the medic domain times are epoch milliseconds (the tables' game times are int8 ms), and
 * the ingest numbers the files it opens; answers and notices carry ISO 8601 UTC times and string
 * ids (spec conventions), made in `patientSummary`, `stateOf` and board-store.ts.
 */
/** A vital sample as stored (medic_files.last_vitals) and as the ingest keeps it: its game time in epoch ms. */
export type StoredVitals = Omit<Vitals, 'at'> & { at: number };

export interface OpenFile {
  id: number; citizenId: string; name: string | null; openedAt: number; lastEventAt: number;
  /** Injuries not healed, and the newest vital sample, as stored: the ingest builds the file's summary from them and the batch. */
  injuries: number; lastVitals: StoredVitals | null;
}
export interface InjuryRow {
  fileId: number; injuryId: string; bodyPart: string; kind: string; severity: number; bleeding: number; state: string; addedAt: number; changedAt: number;
}
export interface IngestReads { stored: Set<string>; open: OpenFile[]; states: Map<string, CitizenState>; injuries: InjuryRow[] }

/**
 * What a batch needs to know, in one statement (one round trip, one write to the socket): the ids
 * of the batch stored before (either table: an id is unique per guild across all types; one probe of
 * the id index per id and table — the lateral `limit 1` keeps it a nested loop, and the id index is
 * the only one a guild_id condition can use, so stale statistics cannot make it a scan of the
 * guild's rows), the citizens' open files with their injury count and newest sample, the
 * citizens' states, and the injuries the batch's injury events name in their citizens' open files
 * (not all of them: a long stay collects many). Every part is index probes by key (lateral
 * `limit 1`: a nested loop whatever the statistics say). Run after `lockIngest`.
 */
export async function ingestReads(db: Conn, guildId: string, ids: string[], citizens: string[], injuries: { citizenId: string; injuryId: string }[]): Promise<IngestReads> {
  const [row] = await run(db, `select
    (select coalesce(json_agg(y.id), '[]') from (
       select x.id from unnest($2::text[]) x(id) cross join lateral (select from medic_events e where e.guild_id = $1 and e.event_id = x.id limit 1) e
       union all
       select x.id from unnest($2::text[]) x(id) cross join lateral (select from medic_vitals v where v.guild_id = $1 and v.event_id = x.id limit 1) v) y) as stored,
    (select coalesce(json_agg(json_build_object('id', f.id, 'citizenId', f.citizen_id, 'name', f.name, 'openedAt', f.opened_at,
        'lastEventAt', f.last_event_at, 'injuries', f.open_injuries, 'lastVitals', f.last_vitals)), '[]')
     from unnest($3::text[]) c(id) cross join lateral (select * from medic_files f
       where f.guild_id = $1 and f.citizen_id = c.id and f.closed_at is null limit 1) f) as open,
    (select coalesce(json_agg(s), '[]') from unnest($3::text[]) c(id) cross join lateral (select * from medic_citizen_states s
       where s.guild_id = $1 and s.citizen_id = c.id limit 1) s) as states,
    (select coalesce(json_agg(i), '[]') from unnest($4::text[], $5::text[]) x(citizen_id, injury_id)
     cross join lateral (select f.id from medic_files f where f.guild_id = $1 and f.citizen_id = x.citizen_id and f.closed_at is null limit 1) f
     cross join lateral (select * from medic_injuries i where i.guild_id = $1 and i.file_id = f.id and i.injury_id = x.injury_id limit 1) i) as injuries`,
  [guildId, idArray(ids), idArray(citizens), idArray(injuries.map((i) => i.citizenId)), idArray(injuries.map((i) => i.injuryId))]);
  return {
    stored: new Set(row.stored as string[]),
    open: row.open as OpenFile[],
    states: new Map((row.states as postgres.Row[]).map((r) => [r.citizen_id as string, stateOf(r)!])),
    injuries: (row.injuries as postgres.Row[]).map(toInjury),
  };
}

const toInjury = (r: postgres.Row): InjuryRow => ({
  fileId: Number(r.file_id), injuryId: r.injury_id, bodyPart: r.body_part, kind: r.kind, severity: r.severity, bleeding: r.bleeding,
  state: r.state, addedAt: Number(r.added_at), changedAt: Number(r.changed_at),
});

/** `count` fresh file ids (files opened by this batch are inserted with them, after the closes). */
export async function newFileIds(db: Conn, count: number): Promise<number[]> {
  const rows = await run(db, `select nextval(pg_get_serial_sequence('medic_files', 'id')) as id from generate_series(1, $1::int)`, [count]);
  return rows.map((r) => Number(r.id));
}

export interface FileWrite {
  id: number; citizenId: string; name: string | null; openedAt: number; lastEventAt: number; closedAt: number | null; outcome: string | null;
  injuries: number; lastVitals: StoredVitals | null;
}
/**
 * Array literals built here rather than by postgres.js, whose serializer escapes every element with
 * two regular expressions (a tenth of the server's time per batch): numbers need no escaping, and
 * ids and enum values (checked by validate.ts: [A-Za-z0-9._:-]) none inside double quotes, which
 * keep an id that reads NULL a string. Free text and JSON go as JSON (json_to_recordset; postgres.js
 * stringifies a json parameter natively).
 */
const numArray = (xs: readonly (number | null)[]) => {
  let s = '{';
  for (let i = 0; i < xs.length; i++) s += (i ? ',' : '') + (xs[i] ?? 'NULL');
  return `${s}}`;
};
const idArray = (xs: readonly string[]) => (xs.length ? `{"${xs.join('","')}"}` : '{}');

/** Files as JSON rows (json_to_recordset), each statement taking the columns it writes. */
const fileRows = (files: FileWrite[]) => files.map((f) => ({
  id: f.id, citizen_id: f.citizenId, name: f.name, opened_at: f.openedAt, last_event_at: f.lastEventAt, closed_at: f.closedAt, outcome: f.outcome,
  open_injuries: f.injuries, last_vitals: f.lastVitals,
}));
/** The touched files' ids (for the primary-key scan) and their new values. */
const fileParams = (files: FileWrite[]) => [numArray(files.map((f) => f.id)), fileRows(files)];
/**
 * Absolute values: the batch computed them from the file as read under the ingest lock. `id = any`
 * makes the files a primary-key scan (a join alone was planned as a hash over all the guild's files).
 */
const updateFilesText = `update medic_files f set name = coalesce(u.name, f.name), last_event_at = u.last_event_at,
      closed_at = coalesce(u.closed_at, f.closed_at), outcome = coalesce(u.outcome, f.outcome),
      closed_activity = case when u.closed_at is not null then u.last_event_at else f.closed_activity end,
      open_injuries = u.open_injuries, last_vitals = u.last_vitals
    from json_to_recordset($3::json) as u(id int8, name text, last_event_at int8, closed_at int8, outcome text, open_injuries int4, last_vitals jsonb)
    where f.guild_id = $1 and f.id = any($2::int8[]) and f.id = u.id`;
/** Touched files that existed: name when newly given, activity, and a close. Runs before `insertFiles` (one open file per citizen). */
export function updateFiles(db: Conn, guildId: string, files: FileWrite[]) {
  return run(db, updateFilesText, [guildId, ...fileParams(files)]);
}
/** The files a batch opens, with the ids drawn by `newFileIds`. */
export function insertFiles(db: Conn, guildId: string, files: FileWrite[]) {
  return run(db, `insert into medic_files (guild_id, id, citizen_id, name, opened_at, last_event_at, closed_at, outcome, closed_activity, open_injuries, last_vitals)
    select $1, u.id, u.citizen_id, u.name, u.opened_at, u.last_event_at, u.closed_at, u.outcome, case when u.closed_at is not null then u.last_event_at end,
      u.open_injuries, u.last_vitals
    from json_to_recordset($2::json) as u(id int8, citizen_id text, name text, opened_at int8, last_event_at int8, closed_at int8, outcome text,
      open_injuries int4, last_vitals jsonb)`, [guildId, fileRows(files)]);
}

export interface EventRow { eventId: string; fileId: number | null; citizenId: string; type: string; at: number; data: object }

/** Column arrays of vital samples, filled by the ingest without an object per row. */
export interface VitalColumns {
  fileId: number[]; eventId: string[]; at: number[];
  heartRate: (number | null)[]; systolic: (number | null)[]; diastolic: (number | null)[]; spo2: (number | null)[];
  respRate: (number | null)[]; temperature: (number | null)[]; gcs: (number | null)[];
}
export const emptyVitals = (): VitalColumns => ({ fileId: [], eventId: [], at: [], heartRate: [], systolic: [], diastolic: [], spo2: [], respRate: [], temperature: [], gcs: [] });

/**
 * Everything a batch writes but new files and images, in one statement (one round trip, one write
 * to the socket): the touched files, the events in batch order (their seq follows it), all vital
 * samples as one multi-row insert, the injuries as they stand after the batch. Empty parts write
 * nothing. Foreign keys are checked at the end of the statement, when every part is written;
 * PostgreSQL runs every data-modifying part whether or not the final select reads it.
 */
export function writeBatch(db: Conn, guildId: string, w: { files: FileWrite[]; events: EventRow[]; vitals: VitalColumns; injuries: InjuryRow[] }) {
  const v = w.vitals;
  const i = w.injuries;
  return run(db, `with files as (${updateFilesText}),
    events as (
      insert into medic_events (guild_id, event_id, file_id, citizen_id, type, at, data)
      select $1, r.event_id, r.file_id, r.citizen_id, r.type, r.at, r.data
      from jsonb_to_recordset($4::jsonb) as r(event_id text, file_id bigint, citizen_id text, type text, at bigint, data jsonb)),
    vitals as (
      insert into medic_vitals (guild_id, file_id, event_id, at, heart_rate, systolic, diastolic, spo2, resp_rate, temperature, gcs)
      select $1, * from unnest($5::int8[], $6::text[], $7::int8[], $8::int2[], $9::int2[], $10::int2[], $11::int2[], $12::int2[], $13::float4[], $14::int2[])),
    injuries as (
      insert into medic_injuries (guild_id, file_id, injury_id, body_part, kind, severity, bleeding, state, added_at, changed_at)
      select $1, * from unnest($15::int8[], $16::text[], $17::text[], $18::text[], $19::int2[], $20::int2[], $21::text[], $22::int8[], $23::int8[])
      on conflict (guild_id, file_id, injury_id) do update set body_part = excluded.body_part, kind = excluded.kind, severity = excluded.severity,
        bleeding = excluded.bleeding, state = excluded.state, added_at = excluded.added_at, changed_at = excluded.changed_at)
    select 1`,
  [guildId, ...fileParams(w.files),
    w.events.map((r) => ({ event_id: r.eventId, file_id: r.fileId, citizen_id: r.citizenId, type: r.type, at: r.at, data: r.data })),
    numArray(v.fileId), idArray(v.eventId), numArray(v.at), numArray(v.heartRate), numArray(v.systolic), numArray(v.diastolic),
    numArray(v.spo2), numArray(v.respRate), numArray(v.temperature), numArray(v.gcs),
    numArray(i.map((r) => r.fileId)), idArray(i.map((r) => r.injuryId)), idArray(i.map((r) => r.bodyPart)), idArray(i.map((r) => r.kind)),
    numArray(i.map((r) => r.severity)), numArray(i.map((r) => r.bleeding)), idArray(i.map((r) => r.state)), numArray(i.map((r) => r.addedAt)),
    numArray(i.map((r) => r.changedAt))]);
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
const summarySelect = `select f.id, f.citizen_id, f.name, f.opened_at, f.closed_at, f.outcome, f.last_event_at, ${stateColumns},
    f.open_injuries as injuries, f.last_vitals
  from medic_files f left join medic_citizen_states s on s.guild_id = f.guild_id and s.citizen_id = f.citizen_id`;

export function stateOf(r: postgres.Row, prefix = ''): CitizenState | null {
  const c = (k: string) => r[prefix + k];
  if (c('citizen_id') === null || c('citizen_id') === undefined) return null;
  const pos = c('position');
  return {
    citizenId: c('citizen_id'), at: isoTime(Number(c('at'))), state: c('state'), health: n(c('health')), armor: n(c('armor')),
    conscious: c('conscious') ?? null, bleeding: n(c('bleeding')), position: pos ? { x: pos.x, y: pos.y, z: pos.z } : null,
    name: c('name') ?? null, updatedAt: new Date(c('updated_at')).toISOString(),
  };
}

/** A sample as answered: its game time in ISO 8601. */
export const vitalsOut = (v: StoredVitals): Vitals => ({ ...v, at: isoTime(v.at) });

/** A file's summary: from a stored row (`summarySelect`) or from a file as a batch leaves it (the ingest). */
export function patientSummary(f: FileWrite, state: CitizenState | null): PatientSummary {
  return {
    fileId: String(f.id), citizenId: f.citizenId, name: f.name ?? state?.name ?? null, status: f.closedAt === null ? 'open' : 'closed',
    outcome: (f.outcome as PatientSummary['outcome']) ?? null, openedAt: isoTime(f.openedAt), closedAt: f.closedAt === null ? null : isoTime(f.closedAt),
    lastEventAt: isoTime(f.lastEventAt), state, injuries: f.injuries, lastVitals: f.lastVitals && vitalsOut(f.lastVitals),
  };
}

const toSummary = (r: postgres.Row): PatientSummary => patientSummary({
  id: Number(r.id), citizenId: r.citizen_id, name: r.name, openedAt: Number(r.opened_at), lastEventAt: Number(r.last_event_at),
  closedAt: n(r.closed_at), outcome: r.outcome, injuries: Number(r.injuries), lastVitals: (r.last_vitals as StoredVitals | null) ?? null,
}, stateOf(r, 's_'));

export async function summariesOf(db: Conn, guildId: string, fileIds: string[]): Promise<PatientSummary[]> {
  const rows = await run(db, `${summarySelect} where f.guild_id = $1 and f.id = any($2::int8[]) order by f.id`, [guildId, fileIds]);
  return rows.map(toSummary);
}

/**
 * A page of files, newest activity first. Open files (no index on their activity, see
 * sql/0017_medic_hot_path.sql) are filtered and sorted; closed ones come from their activity index.
 * The cursor is the (activity, id) of the file named by `before`.
 */
export async function listFiles(db: Db, guildId: string, o: { q: string | null; status: 'open' | 'closed' | 'all'; limit: number; before: string | null }) {
  const like = `replace(replace(replace($2, '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;
  const match = `($2::text is null or f.citizen_id ilike (${like} || '%') or coalesce(f.name, s.name, '') ilike ('%' || ${like} || '%'))`;
  const after = `(c.at is null or (coalesce(f.closed_activity, f.last_event_at), f.id) < (c.at, c.id))`;
  const part = (open: boolean) => `(${summarySelect} cross join cursor c
    where f.guild_id = $1 and f.closed_at is ${open ? '' : 'not '}null and ${match} and ${after}
    order by ${open ? 'f.last_event_at' : 'f.closed_activity'} desc, f.id desc limit $4)`;
  const parts = [o.status !== 'closed' && part(true), o.status !== 'open' && part(false)].filter(Boolean);
  const rows = await run(db, `with cursor as (
      select (select coalesce(closed_activity, last_event_at) from medic_files where guild_id = $1 and id = $3::int8) as at, $3::int8 as id
    )
    select * from (${parts.join(' union all ')}) p order by last_event_at desc, id desc limit $4`, [guildId, o.q, o.before, o.limit + 1]);
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
