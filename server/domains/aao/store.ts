import type { Candidate } from './rank.ts';
import type { Db } from '../../store/db.ts';

export interface UnitTypeRow { code: string; label: string; position: number; units: number }
export interface KeywordRow { id: string; keyword: string; priority: number; requirements: { type: string; count: number }[]; updatedAt: Date }

/**
 * Serialises the guild's AAO catalogue edits (types and keywords) until commit, so the per-guild
 * limits and the in-use checks see every concurrent edit. Readers are not held up.
 */
export async function lockCatalogue(db: Db, guildId: string): Promise<void> {
  await db`select pg_advisory_xact_lock(hashtextextended(${`aao:${guildId}`}, 0))`;
}

export async function unitTypes(db: Db, guildId: string): Promise<UnitTypeRow[]> {
  const rows = await db`select t.code, t.label, t.position,
      (select count(*) from units u where u.guild_id = t.guild_id and u.type = t.code)::int as units
    from unit_types t where t.guild_id = ${guildId} order by t.position, lower(t.code)`;
  return rows.map((r) => ({ code: r.code as string, label: r.label as string, position: r.position as number, units: r.units as number }));
}

/**
 * The catalogue's spelling of each code given in any case, the rows share-locked until commit (a
 * concurrent delete of the type waits, then finds it in use). Codes not in the catalogue are missing from the map.
 */
export async function resolveTypes(db: Db, guildId: string, codes: string[]): Promise<Map<string, string>> {
  if (!codes.length) return new Map();
  const rows = await db`select code from unit_types
    where guild_id = ${guildId} and lower(code) = any(${codes.map((c) => c.toLowerCase())}::text[]) for key share`;
  const byLower = new Map(rows.map((r) => [(r.code as string).toLowerCase(), r.code as string]));
  return new Map(codes.flatMap((c) => (byLower.has(c.toLowerCase()) ? [[c, byLower.get(c.toLowerCase())!] as const] : [])));
}

/**
 * Creates a type, or changes the one with this code in any case (its spelling too: units and
 * requirements follow by the foreign keys). `label`/`position` null keep an existing type's, and
 * give a new one none / the last place. `created`: the code was new.
 */
export async function putUnitType(db: Db, guildId: string, t: { code: string; label: string | null; position: number | null }) {
  const [existing] = await db`select code from unit_types where guild_id = ${guildId} and lower(code) = lower(${t.code}) for update`;
  if (existing) {
    const [row] = await db`update unit_types set code = ${t.code}, label = coalesce(${t.label}::text, label), position = coalesce(${t.position}::int, position)
      where guild_id = ${guildId} and code = ${existing.code as string} returning code, label, position`;
    return { type: toType(row), created: false, previousCode: existing.code as string };
  }
  const [row] = await db`insert into unit_types (guild_id, code, label, position)
    values (${guildId}, ${t.code}, coalesce(${t.label}::text, ''),
      coalesce(${t.position}::int, (select coalesce(max(position), 0) + 1 from unit_types where guild_id = ${guildId})))
    returning code, label, position`;
  return { type: toType(row), created: true, previousCode: null };
}

export async function unitTypeCount(db: Db, guildId: string): Promise<number> {
  const [row] = await db`select count(*)::int as n from unit_types where guild_id = ${guildId}`;
  return row.n as number;
}

/** Who uses the type (any case): units' callsigns and keywords, each sorted; `code` null when there is no such type. */
export async function typeUse(db: Db, guildId: string, code: string) {
  const [row] = await db`
    with t as (select code from unit_types where guild_id = ${guildId} and lower(code) = lower(${code}) for update)
    select (select code from t) as code,
      coalesce((select array_agg(u.callsign order by lower(u.callsign)) from units u where u.guild_id = ${guildId} and u.type = (select code from t)), '{}') as units,
      coalesce((select array_agg(k.keyword order by lower(k.keyword)) from aao_requirements r join aao_keywords k on k.id = r.keyword_id
        where r.guild_id = ${guildId} and r.type = (select code from t)), '{}') as keywords`;
  return { code: (row.code as string | null) ?? null, units: row.units as string[], keywords: row.keywords as string[] };
}

export async function deleteUnitType(db: Db, guildId: string, code: string): Promise<void> {
  await db`delete from unit_types where guild_id = ${guildId} and code = ${code}`;
}

// ---- keywords ----------------------------------------------------------------------------------

const keywordColumns = (db: Db) => db`k.id::text as id, k.keyword, k.priority, k.updated_at,
  coalesce((select json_agg(json_build_object('type', r.type, 'count', r.count) order by r.ord)
    from aao_requirements r where r.keyword_id = k.id), '[]'::json) as requirements`;

/** The guild's keywords, alphabetically (any case). */
export async function keywords(db: Db, guildId: string): Promise<KeywordRow[]> {
  const rows = await db`select ${keywordColumns(db)} from aao_keywords k where k.guild_id = ${guildId} order by lower(k.keyword), k.id`;
  return rows.map(toKeyword);
}

export async function keywordById(db: Db, guildId: string, id: string): Promise<KeywordRow | null> {
  const [row] = await db`select ${keywordColumns(db)} from aao_keywords k where k.guild_id = ${guildId} and k.id = ${id}::bigint`;
  return row ? toKeyword(row) : null;
}

export async function keywordCount(db: Db, guildId: string): Promise<number> {
  const [row] = await db`select count(*)::int as n from aao_keywords where guild_id = ${guildId}`;
  return row.n as number;
}

/** Adds a keyword; null when one with this text (any case) exists. */
export async function insertKeyword(db: Db, guildId: string, keyword: string, priority: number): Promise<string | null> {
  const [row] = await db`insert into aao_keywords (guild_id, keyword, priority) values (${guildId}, ${keyword}, ${priority})
    on conflict do nothing returning id::text as id`;
  return row ? (row.id as string) : null;
}

/** Changes text and/or priority (undefined: unchanged); false when the new text (any case) is another keyword's. */
export async function updateKeyword(db: Db, guildId: string, id: string, p: { keyword?: string; priority?: number }): Promise<boolean> {
  const rows = await db`update aao_keywords set keyword = coalesce(${p.keyword ?? null}::text, keyword),
      priority = coalesce(${p.priority ?? null}::smallint, priority), updated_at = now()
    where guild_id = ${guildId} and id = ${id}::bigint
      and not exists (select 1 from aao_keywords o where o.guild_id = ${guildId} and o.id <> ${id}::bigint and lower(o.keyword) = lower(${p.keyword ?? null}::text))
    returning id`;
  return rows.length === 1;
}

/** Replaces the keyword's requirement rows (types in the catalogue's spelling). */
export async function replaceRequirements(db: Db, guildId: string, id: string, rows: { type: string; count: number }[]): Promise<void> {
  await db`delete from aao_requirements where keyword_id = ${id}::bigint`;
  if (!rows.length) return;
  await db`insert into aao_requirements (keyword_id, ord, guild_id, type, count)
    select ${id}::bigint, r.ord, ${guildId}, r.type, r.count
    from jsonb_to_recordset(${db.json(rows.map((r, i) => ({ ord: i + 1, type: r.type, count: r.count })))}::jsonb) as r(ord int, type text, count int)`;
}

/** Locks and deletes the keyword; its text, or null when there is none with this id in the guild. */
export async function deleteKeyword(db: Db, guildId: string, id: string): Promise<string | null> {
  const [row] = await db`delete from aao_keywords where guild_id = ${guildId} and id = ${id}::bigint returning keyword`;
  return row ? (row.keyword as string) : null;
}

function toType(r: Record<string, unknown>) {
  return { code: r.code as string, label: r.label as string, position: r.position as number };
}

function toKeyword(r: Record<string, unknown>): KeywordRow {
  return {
    id: r.id as string, keyword: r.keyword as string, priority: r.priority as number,
    requirements: r.requirements as { type: string; count: number }[], updatedAt: r.updated_at as Date,
  };
}

/** The sheet's keyword, location and state, or null when the guild has no such sheet. */
export async function sheetOf(db: Db, guildId: string, number: number) {
  const [row] = await db`select keyword, location, state from incidents where guild_id = ${guildId} and number = ${number}`;
  return row ? { keyword: row.keyword as string, location: row.location as unknown, state: row.state as 'open' | 'closed' } : null;
}

/**
 * The guild's units of these types with what the proposal needs: on sheet `number` already; in an
 * available status and on no other open sheet. Units have no stored position yet (issue 31 adds
 * one): `x`/`y` stay null here until then, and the order falls back to station order.
 */
export async function candidates(db: Db, guildId: string, number: number, types: string[]): Promise<Candidate[]> {
  const rows = await db`
    select u.callsign, u.label, u.type, u.org_unit, u.status, coalesce(s.available, false) as status_available,
      (select count(*) from unit_members m where m.guild_id = u.guild_id and m.unit_id = u.id)::int as crew,
      exists (select 1 from incident_units iu where iu.guild_id = u.guild_id and iu.unit_id = u.id and iu.number = ${number}) as on_sheet,
      exists (select 1 from incident_units iu join incidents i on i.guild_id = iu.guild_id and i.number = iu.number and i.state = 'open'
        where iu.guild_id = u.guild_id and iu.unit_id = u.id and iu.number <> ${number}) as elsewhere
    from units u left join unit_statuses s on s.guild_id = u.guild_id and s.code = u.status
    where u.guild_id = ${guildId} and u.type = any(${types}::text[])`;
  return rows.map((r) => ({
    callsign: r.callsign as string, label: r.label as string, type: r.type as string, orgUnit: r.org_unit as string, status: r.status as string,
    crew: r.crew as number, onSheet: r.on_sheet as boolean, available: (r.status_available as boolean) && !(r.elsewhere as boolean),
    position: null, // the positions are in memory (proposal.ts puts them in)
  }));
}
