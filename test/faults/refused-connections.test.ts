/**
 * An external PostgreSQL (DATABASE_URL) that refuses new connections while the sessions it has go
 * on working — what a smart shutdown looks like from outside — for over 10 s, under 16 writers
 * (issue 27, item 6). The server must let go of every connection it holds (pool, transaction connections,
 * health probe), so that such a shutdown can complete; answer 503 meanwhile; log the outage once
 * and then at a bounded rate; and serve again once connections are let in. Before the fix the
 * probe's old connection kept answering, so the server renewed its pools, failed, renewed, ...:
 * hundreds of log lines a second and connections held for ever.
 */
import t from 'tap';
import { loadConfig } from '../../server/config.ts';
import { createLog } from '../../server/core/log.ts';
import { startServer } from '../../server/main.ts';
import { freshDatabase } from '../helpers/db.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { recordCrashes, recordingLog, within } from '../helpers/faults.ts';
import { tcpProxy } from '../helpers/tcp-proxy.ts';

const WRITERS = 16;
const G = '270000000000000064';

const crashes = recordCrashes();

t.test('a database that refuses new connections for 10 s: connections let go, 503s, a short log, then serving again', async (t) => {
  const db = await freshDatabase();
  t.teardown(db.drop);
  // The server reaches PostgreSQL through the relay only.
  const relay = await tcpProxy(Number(new URL(db.url).port));
  t.teardown(() => relay.close());
  const relayed = new URL(db.url);
  relayed.port = String(relay.port);
  const log = recordingLog();
  const server = await startServer({
    config: loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: relayed.toString(), DEMO: '0', LOG_LEVEL: 'silent' }),
    log,
    panel: { refresh: () => {} },
  });
  t.teardown(() => server.close());
  await seedGuild(db.sql, G, Array.from({ length: WRITERS }, (_, i) => ({ userId: `u${i}`, nickname: `Person ${i}`, badge: String(i + 1) })));
  const key = await unscopedKey(db.sql, G, 'writers');

  const statuses: number[] = [];
  let stop = false;
  const writer = async (i: number) => {
    let op = 'in';
    while (!stop) {
      const res = await fetch(`${server.url}/api/v1/admin/clock-${op}`, {
        method: 'POST', signal: AbortSignal.timeout(5000),
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ badge: i + 1 }),
      }).catch(() => null);
      statuses.push(res?.status ?? 0);
      await res?.arrayBuffer();
      if (res?.status === 200 || res?.status === 409) op = op === 'in' ? 'out' : 'in';
      else await new Promise((r) => setTimeout(r, 20));
    }
  };

  // Two writers first, and the health probe's first look (after 1 s): the server holds a few
  // connections; then the database refuses new ones, and sixteen writers need more than it holds.
  const writers = [writer(0), writer(1)];
  await new Promise((r) => setTimeout(r, 1500));
  t.ok(relay.open >= 2, `the server holds connections (${relay.open})`);
  relay.refuseNew = true;
  const linesBefore = log.lines.length;
  writers.push(...Array.from({ length: WRITERS - 2 }, (_, i) => writer(i + 2)));
  try {
    const released = await within(10_000, () => relay.open === 0);
    t.ok(released !== null, released !== null ? `the server let go of all its connections (${released} ms)` : `it still holds ${relay.open} connections after 10 s`);
    await new Promise((r) => setTimeout(r, Math.max(0, 10_000 - (released ?? 10_000))));
    const outageLines = log.lines.slice(linesBefore);
    t.ok(outageLines.length <= 10, `${outageLines.length} log lines over 10 s of refused connections (at most 10)`);
    t.comment(outageLines.slice(0, 12).join('\n'));
    t.equal((await fetch(`${server.url}/api/v1/ready`)).status, 503, '/ready says 503 meanwhile');
    t.ok(statuses.includes(503), 'writes were answered 503');

    relay.refuseNew = false;
    const since = statuses.length;
    const back = await within(15_000, async () => (await fetch(`${server.url}/api/v1/ready`)).status === 200 && statuses.slice(since).includes(200));
    t.ok(back !== null, back !== null ? `serving writes again ${back} ms after connections were let in` : 'not serving again within 15 s');
  } finally {
    stop = true;
    await Promise.all(writers);
  }
  t.same(statuses.filter((s) => ![200, 409, 503].includes(s)), [], 'every answer was 200, 409 (a retried write that had committed) or 503');
  t.same(crashes, [], 'no crash, no unhandled rejection');
});

t.test('the server log holds back a message repeated in a burst, and says how many it held back', async (t) => {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stderr.write;
  try {
    const log = createLog('info', { burst: 5, windowMs: 300 });
    for (let i = 0; i < 1000; i++) log.warn('the same thing again', { i });
    log.info('something else');
    await new Promise((r) => setTimeout(r, 500));
  } finally {
    process.stderr.write = write;
  }
  const entries = written.map((line) => JSON.parse(line));
  t.same(entries.filter((e) => e.msg === 'the same thing again' && e.repeated === undefined).map((e) => e.i), [0, 1, 2, 3, 4], 'the first 5 are written');
  t.same(entries.filter((e) => e.repeated !== undefined).map((e) => [e.lvl, e.msg, e.repeated]), [['warn', 'the same thing again', 995]], 'then one line with the count of the 995 held back');
  t.ok(entries.some((e) => e.msg === 'something else'), 'other messages are written');
});
