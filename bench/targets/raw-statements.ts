/**
 * Reference for the clock pairs: bare uWebSockets.js in front of the raw SQL loop's own two
 * statements (insert a shift, update it by id; no event, no auth, no validation). The bench shows
 * it beside the raw loop, so what any HTTP server in front of the database costs (the request's
 * two extra hops through the kernel and their wake-ups) is told apart from what the server adds.
 * Badges map to user ids as seeded; a clock-out updates the shift its clock-in inserted.
 */
import { connect } from '../../server/store/db.ts';
import { serveClockTarget } from '../lib/clock-target.ts';

const guildId = process.env.BENCH_GUILD_ID!;
const sql = connect(process.env.BENCH_DATABASE_URL!, 10);
const userOf = new Map((await sql`select badge, user_id from people where guild_id = ${guildId}`).map((r) => [r.badge as string, r.user_id as string]));
const openShiftOf = new Map<string, string>();

serveClockTarget('raw statements', {
  async clockIn(badge) {
    const userId = userOf.get(badge);
    if (!userId) return false;
    const [row] = await sql`insert into shifts (guild_id, user_id) values (${guildId}, ${userId}) returning id`;
    openShiftOf.set(badge, row.id as string);
    return true;
  },
  async clockOut(badge) {
    const id = openShiftOf.get(badge);
    if (id === undefined) return false;
    openShiftOf.delete(badge);
    await sql`update shifts set clock_out_at = now(), status = 'CLOSED' where id = ${id}`;
    return true;
  },
}, () => sql.end({ timeout: 1 }));
