import { createApiKey } from '../../server/domains/apikeys/service.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import type { Sql } from '../../server/store/db.ts';

const DAY = 86_400_000;
export const HISTORY_YEARS = 3;

export interface SeededGuild {
  guildId: string;
  label: string;
  /** An unscoped key of the guild (acts as its admin). */
  key: string;
  shifts: number;
  people: number;
  /** user_id of a person with a full history (not one of the open shifts' people). */
  someUserId: string;
}

const ranks = [
  ['anw', 'Anwärter', 1, 0.25], ['pm', 'Polizeimeister', 2, 0.3], ['pom', 'Polizeiobermeister', 3, 0.2],
  ['pk', 'Kommissar', 4, 0.12], ['pok', 'Oberkommissar', 5, 0.08], ['phk', 'Hauptkommissar', 6, 0.05],
] as const;
const orgUnits = ['Streife', 'Kriminalpolizei', 'Verkehr', 'SEK', 'Leitstelle'];

/** Discord-like snowflake of person `n` (1-based); the same person in every guild has the same id. */
export const userIdOf = (n: number) => `7${String(n).padStart(17, '0')}`;

export interface GuildShape {
  guildId: string;
  label: string;
  people: number;
  /** A multiple of `people`. */
  shifts: number;
  /** The history: shifts begin in [from, to) (epoch ms). */
  from: number;
  to: number;
  /** People whose last shift is still open, begun in the 4 h before `to` (a handful, as on any evening). */
  openShifts: number;
}

/**
 * A guild with `people` people (ranks skewed towards the lower ones, five organisation units) and
 * `shifts` shifts spread evenly over [from, to): each person gets one shift per slot of (history /
 * shifts per person), 1–6 h long at a random point of its slot; 3 % are forgotten clock-outs of
 * 1–4 days, 1 in 2000 of 8–22 days (forgotten over a holiday), none ending after `to`; the last
 * shift of `openShifts` people is open. One INSERT … SELECT over generate_series, in time order (as a live guild writes
 * them). As superuser the foreign key checks of that one statement are skipped
 * (session_replication_role): the rows are valid by construction.
 */
export async function seedStatsGuild(sql: Sql, o: GuildShape): Promise<SeededGuild> {
  const { guildId, people, shifts } = o;
  if (shifts % people !== 0) throw new Error(`shifts (${shifts}) must be a multiple of people (${people})`);
  const perPerson = shifts / people;
  const slotSeconds = (o.to - o.from - 60_000) / perPerson / 1000;
  if (slotSeconds < 7 * 3600) throw new Error(`${perPerson} shifts per person do not fit the history with slots of at least 7 h`);

  await insertGuild(sql, guildId, o.label);
  const [{ fastSeed }] = await sql`select rolsuper as "fastSeed" from pg_roles where rolname = current_user`;
  for (const [id, name, position] of ranks) {
    await sql`insert into ranks (guild_id, id, name, position, capabilities) values (${guildId}, ${id}, ${name}, ${position}, ${['timeclock.own.use']})`;
  }
  // rank by a cumulative share of the people; org unit round-robin; badges normalised like the CLI's
  const cumulative = ranks.map((_, i) => ranks.slice(0, i + 1).reduce((a, r) => a + r[3], 0));
  await sql`
    insert into people (guild_id, user_id, nickname, badge, rank_id, org_unit)
    select ${guildId}, '7' || lpad(p::text, 17, '0'), 'Person ' || p, case when p < 10 then '0' || p else p::text end,
      (${ranks.map((r) => r[0] as string)}::text[])[
        least(${ranks.length}, (select count(*) + 1 from unnest(${cumulative}::float8[]) c where c < p::float8 / ${people}::int))],
      (${orgUnits}::text[])[p % ${orgUnits.length}::int + 1]
    from generate_series(1, ${people}::int) p`;

  await sql.begin(async (tx) => {
    if (fastSeed) await tx`set local session_replication_role = replica`;
    await tx`
    insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status)
    select ${guildId}, '7' || lpad(p::text, 17, '0'), s,
      case when open then null else least(s + len, ${new Date(o.to - 60_000)}::timestamptz) end,
      case when open then 'OPEN' else 'CLOSED' end
    from (
      select p, open,
        case when open then ${new Date(o.to)}::timestamptz - r_start * interval '4 hours'
          else ${new Date(o.from)}::timestamptz + (k * ${slotSeconds}::float8 + r_start * (${slotSeconds}::float8 - 6 * 3600)) * interval '1 second' end as s,
        case when r_kind < 0.0005 then interval '8 days' + r_len * interval '14 days'
          when r_kind < 0.03 then interval '1 day' + r_len * interval '3 days'
          else interval '1 hour' + r_len * interval '5 hours' end as len
      from (
        select g % ${people}::int + 1 as p, g / ${people}::int as k,
          g / ${people}::int = ${perPerson - 1}::int and g % ${people}::int < ${o.openShifts}::int as open,
          random() as r_start, random() as r_len, random() as r_kind
        from generate_series(0, ${shifts - 1}::int) g
      ) x
    ) y
    order by s`;
  });
  const { key } = await createApiKey(sql, guildId, 'bench stats', null);
  return { guildId, label: o.label, key, shifts, people, someUserId: userIdOf(o.openShifts + 1) };
}

/**
 * A staffing minimum of 90 % of the guild's average head count on duty (at least 1): the count
 * falls below it now and then, so the heatmap has understaffed hours to find.
 */
export async function setStaffingMinimum(sql: Sql, g: GuildShape): Promise<void> {
  await sql`update guilds set min_on_duty = greatest(1, least(1000, round(0.9 * (
      select sum(extract(epoch from clock_out_at - clock_in_at)) from shifts where guild_id = ${g.guildId}
    ) / ${(g.to - g.from) / 1000}::float8)))
    where id = ${g.guildId}`;
}

/**
 * The state a database of years reaches on its own: autovacuum has set the visibility map (so
 * index-only scans stay index-only) and statistics are current. Run once after seeding, then a
 * checkpoint, so neither runs during the measurements.
 */
export async function settleDatabase(sql: Sql): Promise<void> {
  await sql`vacuum (analyze) shifts`;
  await sql`analyze people`;
  await sql`checkpoint`;
}

export interface BenchGuilds {
  big: SeededGuild;
  small: SeededGuild;
  /** The big guild's density over 4 weeks around `mid` only: the same weeks, without the years. */
  control: SeededGuild;
  /** A day (YYYY-MM-DD) in the middle of the history, for the daily/weekly/monthly queries. */
  mid: string;
}

/**
 * The benchmark's guilds in one database: `big` and `small` shifts over the last three years, and a
 * control guild with the big one's density over [mid − 21 days, mid + 7 days): the week of `mid`,
 * the week before it (the trend) and the 8 days before that a forgotten shift may reach back.
 */
export async function seedBenchGuilds(sql: Sql, o: { people: number; bigShifts: number; smallShifts: number; now: number }): Promise<BenchGuilds> {
  const history = { from: o.now - HISTORY_YEARS * 365.25 * DAY, to: o.now, openShifts: 5 };
  const midAt = o.now - (HISTORY_YEARS / 2) * 365.25 * DAY;
  const controlWindow = { from: midAt - 21 * DAY, to: midAt + 7 * DAY, openShifts: 0 };
  const controlPerPerson = Math.max(1, Math.round(((controlWindow.to - controlWindow.from) / (history.to - history.from)) * (o.bigShifts / o.people)));
  const shapes: GuildShape[] = [
    { guildId: '900000000000000201', label: `Bench ${o.bigShifts}`, people: o.people, shifts: o.bigShifts, ...history },
    { guildId: '900000000000000202', label: `Bench ${o.smallShifts}`, people: o.people, shifts: o.smallShifts, ...history },
    { guildId: '900000000000000203', label: 'Bench control', people: o.people, shifts: controlPerPerson * o.people, ...controlWindow },
  ];
  const seeded: SeededGuild[] = [];
  for (const shape of shapes) {
    seeded.push(await seedStatsGuild(sql, shape));
    await setStaffingMinimum(sql, shape);
  }
  await settleDatabase(sql);
  return { big: seeded[0], small: seeded[1], control: seeded[2], mid: new Date(midAt).toISOString().slice(0, 10) };
}
