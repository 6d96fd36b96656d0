import { readFileSync } from 'node:fs';
import { createApiKey } from '../../server/domains/apikeys/service.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import type { Sql } from '../../server/store/db.ts';

const DAY = 86_400_000;

export const keywords = [
  'Brand Wohnhaus', 'Brand Garage', 'Brand PKW', 'Brand Müllcontainer', 'Brandmeldeanlage', 'VU PKW', 'VU mit eingeklemmter Person',
  'VU Motorrad', 'Herzinfarkt', 'Atemnot', 'Bewusstlose Person', 'Sturz', 'Verkehrsunfall Bus', 'Gasaustritt', 'Wasserrohrbruch',
  'Ölspur', 'Person in Notlage', 'Tierrettung', 'Einbruch', 'Ruhestörung', 'Körperverletzung', 'Diebstahl', 'Schlägerei', 'Raub',
  'Verdächtige Person', 'Hilflose Person', 'Krampfanfall', 'Schlaganfall', 'Geburt', 'Suizidversuch', 'Unterzuckerung',
  'Allergische Reaktion', 'Rauchentwicklung', 'Baum auf Straße', 'Tür öffnen', 'Wohnungsöffnung', 'Kind in Not', 'Ertrinken', 'Absturz', 'Explosion',
];
const streetNames = ['Hafen', 'Bahnhof', 'Markt', 'Kirch', 'Schul', 'Linden', 'Berg', 'Wald', 'Garten', 'Mühlen', 'Rosen', 'Kaiser', 'König',
  'Park', 'Feld', 'Wiesen', 'Sonnen', 'Tal', 'Brunnen', 'Burg', 'Amsel', 'Birken', 'Eichen', 'Goethe', 'Schiller'];
export const streets = streetNames.flatMap((s) => ['straße', 'weg', 'allee', 'platz'].map((x) => `${s}${x}`));
const firsts = ['Anna', 'Ben', 'Clara', 'David', 'Emma', 'Felix', 'Greta', 'Hans', 'Ida', 'Jonas', 'Karl', 'Lena', 'Max', 'Nora', 'Otto', 'Paula', 'Quirin', 'Rosa', 'Sven', 'Tina'];
const lasts = ['Albers', 'Brandt', 'Carstens', 'Dietrich', 'Ebert', 'Fischer', 'Gerber', 'Hansen', 'Iversen', 'Jansen', 'Kowalski', 'Lorenz', 'Meyer',
  'Neumann', 'Otten', 'Peters', 'Quast', 'Richter', 'Schulz', 'Thiele', 'Ulrich', 'Vogel', 'Weber', 'Xander', 'Zimmer'];
export const names = firsts.flatMap((f) => lasts.map((l) => `${f} ${l}`));
const unitTypes: [string, number][] = [['RTW', 20], ['NEF', 8], ['HLF', 12], ['DLK', 4], ['KTW', 8], ['FuStW', 8]];
export const callsigns = unitTypes.flatMap(([type, n]) => Array.from({ length: n }, (_, i) => `${type} ${i + 1}`));

export interface SeededIncidents { guildId: string; key: string; sheets: number }

/**
 * A guild with `sheets` incident sheets over the 3 years before `now` (numbers in time order, one
 * every few hours as a busy server writes them): a keyword of 40, a street of 100 with a house
 * number and one of 20 postal codes, half made of a game call with a caller (500 names), 1–3 of 60
 * units, 4 timeline entries by 3 of the 500 names; all closed but the newest 20. One INSERT … SELECT
 * per table with triggers and foreign keys off (session_replication_role, as superuser: the rows are
 * valid by construction), then `search_seen` in one statement: the backfill of sql/0023 itself, read
 * from the migration file, so the search text is the one the triggers would have written.
 */
export async function seedIncidentGuild(sql: Sql, guildId: string, sheets: number, now: number): Promise<SeededIncidents> {
  await insertGuild(sql, guildId, `Bench incidents ${sheets}`);
  const from = new Date(now - 3 * 365 * DAY), step = (3 * 365 * DAY) / sheets / 1000;
  await sql`insert into units (guild_id, callsign, label) select ${guildId}, c, 'Einheit ' || c from unnest(${callsigns}::text[]) c`;
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`insert into calls (guild_id, id, external_id, status, kind, priority, title, caller, incident_number, taken_at)
      select ${guildId}, g, 'bench-' || g, 'taken', 'notruf', 2, 'Meldung ' || g,
        jsonb_build_object('name', (${names}::text[])[1 + (g * 7919) % ${names.length}::int], 'phone', '0' || (1000000 + (g::bigint * 104729) % 9000000)::text), g,
        ${from}::timestamptz + g * ${step}::float8 * interval '1 second'
      from generate_series(1, ${sheets}::int) g where g % 2 = 0`;
    await tx`insert into incidents (guild_id, number, keyword, location, priority, state, version, call_id, created_by_kind, created_by_id, created_by_name, created_at, updated_at, closed_at)
      select ${guildId}, g, (${keywords}::text[])[1 + (g * 31 + g / 7) % ${keywords.length}::int],
        jsonb_build_object('street', (${streets}::text[])[1 + (g * 37 + g / 11) % ${streets.length}::int] || ' ' || (1 + g % 97), 'postal', (20000 + (g % 20) * 95)::text,
          'x', (g % 4000) - 2000, 'y', (g * 3 % 6000) - 3000),
        1 + g % 3, case when g > ${sheets - 20}::int then 'open' else 'closed' end, 2, case when g % 2 = 0 then g end,
        'session', 'u' || (g % 500), (${names}::text[])[1 + (g * 13) % ${names.length}::int], t, t, case when g > ${sheets - 20}::int then null else t + interval '1 hour' end
      from (select g, ${from}::timestamptz + g * ${step}::float8 * interval '1 second' as t from generate_series(1, ${sheets}::int) g) x`;
    await tx`insert into incident_units (guild_id, number, unit_id, assigned_at, alarmed_at, acknowledged_at)
      select ${guildId}, i.number, u.id, i.created_at, i.created_at, i.created_at + interval '40 seconds'
      from incidents i cross join lateral generate_series(0, i.number % 3) k
      join units u on u.guild_id = i.guild_id and u.callsign = (${callsigns}::text[])[1 + (i.number * 7 + k * 13) % ${callsigns.length}::int]
      where i.guild_id = ${guildId}
      on conflict do nothing`;
    await tx`insert into incident_entries (guild_id, number, kind, text, by_kind, by_id, by_name, at)
      select ${guildId}, i.number, (array['created', 'unit_alarmed', 'note', 'closed'])[k], 'Eintrag ' || k, 'session', 'u' || k,
        (${names}::text[])[1 + (i.number * 17 + k * 101) % ${names.length}::int], i.created_at + k * interval '10 minutes'
      from incidents i cross join generate_series(1, 4) k where i.guild_id = ${guildId}`;
    await tx`insert into incident_counters (guild_id, last_number) values (${guildId}, ${sheets})`;
    await tx.unsafe(`${backfill().replace(/;\s*$/, '')} and i.guild_id = $1`, [guildId]);
  });
  const { key } = await createApiKey(sql, guildId, 'bench incidents', null);
  return { guildId, key, sheets };
}

/** The `update incidents i set search_seen = …` statement of sql/0023 (its backfill). */
function backfill(): string {
  const file = readFileSync(new URL('../../sql/0023_incident_search.sql', import.meta.url), 'utf8');
  const m = /update incidents i set search_seen[\s\S]*?\)\);/.exec(file);
  if (!m) throw new Error('sql/0023_incident_search.sql has no backfill statement');
  return m[0].replace(/\)\);$/, '))\nwhere true;');
}
