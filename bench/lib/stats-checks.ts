/**
 * Before timing anything: the answers being timed are the right ones. Counts and sums the server
 * gives are compared with plain SQL over the same rows, so a fast answer that is wrong (an index
 * range that misses shifts) shows up as a mismatch instead of a good figure.
 */
import type postgres from 'postgres';
import type { SeededGuild } from './stats-seed.ts';
import { getJson } from './stats-timing.ts';

interface Totals { totalMs: number; totalShifts: number }
interface Answer { range: { from: string | null; to: string }; totals: Totals }

/** Mismatches found (empty: every checked answer agrees with SQL). */
export async function checkAnswers(base: string, sql: postgres.Sql<{}>, guilds: SeededGuild[], day: string): Promise<string[]> {
  const problems: string[] = [];
  for (const g of guilds) {
    const all = (await getJson(base, '/api/v1/stats/leaderboard?period=alltime', g.key)) as unknown as Answer;
    const [whole] = await sql`select count(*)::int as n, count(*) filter (where clock_out_at is null)::int as open,
        coalesce(sum(floor(extract(epoch from clock_out_at) * 1000) - floor(extract(epoch from clock_in_at) * 1000)), 0)::float8 as closed_ms
      from shifts where guild_id = ${g.guildId}`;
    if (all.totals.totalShifts !== whole.n) problems.push(`${g.label}: alltime totalShifts ${all.totals.totalShifts}, SQL counts ${whole.n}`);
    // the open shifts run up to the request's now: at most 4 h each (stats-seed.ts) plus the seconds since
    const openMs = all.totals.totalMs - whole.closed_ms;
    if (!(openMs >= 0 && openMs <= whole.open * 5 * 3_600_000)) problems.push(`${g.label}: alltime totalMs ${all.totals.totalMs} is not the closed shifts' ${whole.closed_ms} plus the open ones' time so far`);

    const week = (await getJson(base, `/api/v1/stats/leaderboard?period=weekly&date=${day}`, g.key)) as unknown as Answer;
    const from = new Date(week.range.from!), to = new Date(week.range.to);
    const [inWeek] = await sql`select count(*)::int as n,
        coalesce(sum(floor(extract(epoch from least(clock_out_at, ${to})) * 1000) - floor(extract(epoch from greatest(clock_in_at, ${from})) * 1000)), 0)::float8 as ms
      from shifts where guild_id = ${g.guildId} and clock_in_at < ${to} and clock_out_at > ${from}`;
    if (week.totals.totalShifts !== inWeek.n || week.totals.totalMs !== inWeek.ms) {
      problems.push(`${g.label}: week of ${day}: ${week.totals.totalShifts} shifts / ${week.totals.totalMs} ms, SQL over the whole table: ${inWeek.n} / ${inWeek.ms}`);
    }
    if (inWeek.n === 0) problems.push(`${g.label}: the week of ${day} has no shifts: the seed is wrong`);

    const person = (await getJson(base, `/api/v1/stats/user/${g.someUserId}?period=alltime`, g.key)) as { totals: { shiftCount: number } };
    const [own] = await sql`select count(*)::int as n from shifts where guild_id = ${g.guildId} and user_id = ${g.someUserId}`;
    if (person.totals.shiftCount !== own.n) problems.push(`${g.label}: user alltime shiftCount ${person.totals.shiftCount}, SQL counts ${own.n}`);

    const heat = (await getJson(base, `/api/v1/stats/heatmap?period=monthly&date=${day}`, g.key)) as { minOnDuty: number; totals: { hours: number } };
    if (!(heat.minOnDuty > 0 && heat.totals.hours >= 28 * 24 - 1)) problems.push(`${g.label}: heatmap of the month of ${day} measured ${heat.totals.hours} hours against a minimum of ${heat.minOnDuty}`);
  }
  return problems.map((p) => `MISMATCH ${p}`);
}
