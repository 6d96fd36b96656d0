/**
 * Reference for the clock pairs: bare uWebSockets.js in front of the server's own clock-in and
 * clock-out statements (shift, freed seats, event and seq in one statement each) and nothing else:
 * no auth, no tRPC, no validation, no bus. The bench shows it between the server and the raw SQL
 * loop, so the cost of the statements and the cost of the stack around them can be told apart.
 * Answers 200, or 409 when the statement changed nothing (after the store's follow-up read).
 */
import { closeShift, openShift } from '../../server/domains/timeclock/store.ts';
import { connect } from '../../server/store/db.ts';
import { serveClockTarget } from '../lib/clock-target.ts';

const guildId = process.env.BENCH_GUILD_ID!;
const sql = connect(process.env.BENCH_DATABASE_URL!, 10);

serveClockTarget('clock statements', {
  clockIn: async (badge) => (await openShift(sql, guildId, { badge }, null)).opened !== null,
  clockOut: async (badge) => (await closeShift(sql, guildId, { badge }, null)).closed !== null,
}, () => sql.end({ timeout: 1 }));
