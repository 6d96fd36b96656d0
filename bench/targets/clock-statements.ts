/**
 * Reference for the clock pairs: bare uWebSockets.js in front of the server's own clock-in and
 * clock-out statements (shift, freed seats, event and seq in one statement each) and nothing else:
 * no auth, no tRPC, no validation, no bus. The bench shows it between the server and the raw SQL
 * loop, so the cost of the statements and the cost of the stack around them can be told apart.
 * Answers 200, or 409 when the statement changed nothing (after the store's follow-up read).
 */
import uWS from 'uWebSockets.js';
import { normalizeBadge } from '../../server/core/badge.ts';
import { closeShift, openShift } from '../../server/domains/timeclock/store.ts';
import { connect } from '../../server/store/db.ts';
import { report, stopOnSignalOrOrphan } from '../lib/child.ts';

const guildId = process.env.BENCH_GUILD_ID!;
const sql = connect(process.env.BENCH_DATABASE_URL!, 10);
const app = uWS.App();

const routes: Record<string, (badge: string) => Promise<boolean>> = {
  '/api/v1/admin/clock-in': async (badge) => (await openShift(sql, guildId, { badge }, null)).opened !== null,
  '/api/v1/admin/clock-out': async (badge) => (await closeShift(sql, guildId, { badge }, null)).closed !== null,
};
for (const [path, write] of Object.entries(routes)) {
  app.post(path, (res) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const chunks: Buffer[] = [];
    res.onData((chunk, last) => {
      chunks.push(Buffer.from(chunk.slice(0)));
      if (!last) return;
      const { badge } = JSON.parse(Buffer.concat(chunks).toString()) as { badge: number };
      void write(normalizeBadge(badge)).then((changed) => {
        if (!aborted) res.cork(() => res.writeStatus(changed ? '200 OK' : '409 Conflict').end(''));
      });
    });
  });
}
app.listen('127.0.0.1', 0, (token) => {
  if (!token) throw new Error('clock statements: cannot listen');
  report({ port: uWS.us_socket_local_port(token) });
  stopOnSignalOrOrphan(async () => {
    uWS.us_listen_socket_close(token);
    await sql.end({ timeout: 1 });
  });
});
