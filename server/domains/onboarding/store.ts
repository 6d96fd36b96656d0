import type { Db } from '../../store/db.ts';
import type { Area } from './areas.ts';
import type { Template } from './templates/types.ts';

/**
 * Serialises the guild's seeds until commit: two concurrent seeds see each other's rows, so each
 * area is filled once. Other writers (a rank created by hand meanwhile) are not held up.
 */
export async function lockOnboarding(db: Db, guildId: string): Promise<void> {
  await db`select pg_advisory_xact_lock(hashtextextended(${`onboarding:${guildId}`}, 0))`;
}

/** Which setup areas are empty, decided by the database; null for an unknown guild. */
export async function emptyAreas(db: Db, guildId: string): Promise<Record<Area, boolean> | null> {
  const [row] = await db`select
      not exists (select 1 from ranks where guild_id = g.id) as ranks,
      not exists (select 1 from unit_statuses where guild_id = g.id) as statuses,
      not exists (select 1 from unit_types where guild_id = g.id) and not exists (select 1 from aao_keywords where guild_id = g.id) as aao,
      not exists (select 1 from units where guild_id = g.id) as units,
      not exists (select 1 from letterheads where guild_id = g.id) as letterheads,
      g.modules = '{}'::jsonb as modules,
      g.max_shift_ms is null and g.min_on_duty = 0 as clock
    from guilds g where g.id = ${guildId}`;
  if (!row) return null;
  return { ranks: row.ranks, statuses: row.statuses, aao: row.aao, units: row.units, letterheads: row.letterheads, modules: row.modules, clock: row.clock };
}

/** Inserts the statuses; an existing code is left as it is (the caller checked the catalogue is empty). */
export async function insertStatuses(db: Db, guildId: string, statuses: Template['statuses']): Promise<number> {
  const rows = await db`insert into unit_statuses (guild_id, code, label, color, alarm, acknowledges, available, position)
    select ${guildId}, s.code, s.label, s.color, s.alarm, coalesce(s.acknowledges, false), coalesce(s.available, false), s.position
    from jsonb_to_recordset(${db.json(statuses)}::jsonb) as s(code text, label text, color text, alarm boolean, acknowledges boolean, available boolean, position int)
    on conflict do nothing returning code`;
  return rows.length;
}

/** Inserts the unit types in the template's order (the caller checked the AAO is empty); their codes. */
export async function insertUnitTypes(db: Db, guildId: string, types: Template['unitTypes']): Promise<string[]> {
  const rows = await db`insert into unit_types (guild_id, code, label, position)
    select ${guildId}, t.code, t.label, t.ord from jsonb_to_recordset(${db.json(types.map((t, i) => ({ ...t, ord: i + 1 })))}::jsonb) as t(code text, label text, ord int)
    on conflict do nothing returning code`;
  return rows.map((r) => r.code as string);
}

/** Inserts the keywords with their requirement rows (the types exist: inserted just before); their texts. */
export async function insertKeywords(db: Db, guildId: string, keywords: Template['keywords']): Promise<string[]> {
  const made: string[] = [];
  for (const k of keywords) {
    const [row] = await db`insert into aao_keywords (guild_id, keyword, priority) values (${guildId}, ${k.keyword}, ${k.priority})
      on conflict do nothing returning id`;
    if (!row) continue;
    await db`insert into aao_requirements (keyword_id, ord, guild_id, type, count)
      select ${row.id as string}::bigint, r.ord, ${guildId}, r.type, r.count
      from jsonb_to_recordset(${db.json(k.requirements.map((r, i) => ({ ...r, ord: i + 1 })))}::jsonb) as r(ord int, type text, count int)`;
    made.push(k.keyword);
  }
  return made;
}

/**
 * Gives the guild's untyped units that carry a template callsign (any case) the template's type,
 * where the catalogue has it; the callsigns typed, with their types.
 */
export async function typeTemplateUnits(db: Db, guildId: string, units: Template['units']) {
  const rows = await db`update units u set type = t.code
    from jsonb_to_recordset(${db.json(units.map((x) => ({ callsign: x.callsign, type: x.type })))}::jsonb) as x(callsign text, type text)
    join unit_types t on t.guild_id = ${guildId} and lower(t.code) = lower(x.type)
    where u.guild_id = ${guildId} and u.type is null and lower(u.callsign) = lower(x.callsign)
    returning u.callsign, u.type`;
  return rows.map((r) => ({ callsign: r.callsign as string, type: r.type as string }));
}

/** Inserts the letterheads after the guild's last one, in the template's order; names already taken are left out. */
export async function insertLetterheads(db: Db, guildId: string, letterheads: Template['letterheads']): Promise<string[]> {
  const rows = await db`insert into letterheads (guild_id, name, organisation, address_lines, primary_color, secondary_color, footer, position)
    select ${guildId}, l.name, l.organisation, array(select jsonb_array_elements_text(l.address_lines)),
      l.primary_color, l.secondary_color, l.footer,
      (select coalesce(max(position), 0) from letterheads where guild_id = ${guildId}) + l.ord
    from jsonb_to_recordset(${db.json(letterheads.map((l, i) => ({
      ord: i + 1, name: l.name, organisation: l.organisation, address_lines: l.addressLines,
      primary_color: l.primaryColor, secondary_color: l.secondaryColor, footer: l.footer,
    })))}::jsonb) as l(ord int, name text, organisation text, address_lines jsonb, primary_color text, secondary_color text, footer text)
    on conflict do nothing returning name`;
  return rows.map((r) => r.name as string);
}

/** Stores every module switch, only while the guild never changed one; null when it had meanwhile. */
export async function setModulesIfUnchanged(db: Db, guildId: string, modules: Record<string, boolean>): Promise<Record<string, unknown> | null> {
  const [row] = await db`update guilds set modules = ${db.json(modules)}
    where id = ${guildId} and modules = '{}'::jsonb returning modules`;
  return row ? row.modules : null;
}

/** Sets the clock settings, only while none was set; null when they were meanwhile. */
export async function setClockIfUnset(db: Db, guildId: string, c: Template['clock']) {
  const [row] = await db`update guilds set time_zone = ${c.timeZone}, max_shift_ms = ${c.maxShiftMs}, min_on_duty = ${c.minOnDuty}
    where id = ${guildId} and max_shift_ms is null and min_on_duty = 0
    returning time_zone, max_shift_ms, min_on_duty`;
  return row ? { timeZone: row.time_zone as string, maxShiftMs: Number(row.max_shift_ms), minOnDuty: row.min_on_duty as number } : null;
}

/** Row counts of every table a seed writes, for tests and for the seedable answer's summary. */
export async function areaCounts(db: Db, guildId: string): Promise<Record<'ranks' | 'statuses' | 'units' | 'letterheads', number>> {
  const [row] = await db`select
      (select count(*) from ranks where guild_id = ${guildId})::int as ranks,
      (select count(*) from unit_statuses where guild_id = ${guildId})::int as statuses,
      (select count(*) from units where guild_id = ${guildId})::int as units,
      (select count(*) from letterheads where guild_id = ${guildId})::int as letterheads`;
  return { ranks: row.ranks, statuses: row.statuses, units: row.units, letterheads: row.letterheads };
}
