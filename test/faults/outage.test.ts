/**
 * PostgreSQL goes away under load (issue 15, item 1): a real server on its own embedded cluster,
 * 16 concurrent writers (clock-in/out by badge and call reports/resolves, each with its own key),
 * a live board, and the postmaster killed (SIGKILL) and shut down fast (SIGINT) while they write.
 * The server must survive, answer 503 {error} with Retry-After at once during the outage, restart
 * its cluster, serve again, keep every write it answered 200, and bring the board to the truth.
 * FAULT_ROUNDS=n repeats the two faults n times (default 1: about 10 s).
 */
import t from 'tap';
import { readPostmasterPid } from '../../server/store/pg-process.ts';
import { isAlive } from '../../server/store/pid.ts';
import { isErrorBody, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { recordCrashes, serverOnOwnCluster } from '../helpers/faults.ts';

const rounds = Number(process.env.FAULT_ROUNDS ?? 1);
const WRITERS = 16;
const G = '150000000000000001';

const crashes = recordCrashes();
const { server, clusterDir, log } = await serverOnOwnCluster(t, 'dt-outage-');

await seedGuild(server.deps.sql, G, Array.from({ length: WRITERS }, (_, i) => ({ userId: `u${i}`, nickname: `Person ${i}`, badge: String(i + 1) })));
const keys = await Promise.all(Array.from({ length: WRITERS }, (_, i) => unscopedKey(server.deps.sql, G, `writer ${i}`)));
const admin = keys[0];
const session = await signIn({ url: server.url, sql: server.deps.sql }, G, 'u0');

/** One answer of the server, as a writer saw it. */
interface Answer { op: string; status: number; ms: number; retryAfter: string | null; body: any; at: number }
const answers: Answer[] = [];

async function post(key: string, path: string, body: object, op: string): Promise<Answer> {
  const started = Date.now();
  let answer: Answer;
  try {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method: 'POST', signal: AbortSignal.timeout(5000),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const text = await res.text();
    answer = { op, status: res.status, ms: Date.now() - started, retryAfter: res.headers.get('retry-after'), body: JSON.parse(text), at: started };
  } catch (err) {
    answer = { op, status: 0, ms: Date.now() - started, retryAfter: null, body: String(err), at: started }; // no answer within 5 s
  }
  answers.push(answer);
  return answer;
}

{
  const res = await fetch(`${server.url}/api/v1/admin/call-rate-limit`, {
    method: 'PUT', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ perMinute: 6000, burst: 1000 }),
  });
  if (res.status !== 200) throw new Error(`rate limit: ${res.status}`);
}

let stop = false;
/**
 * Writer i: clock-in, report a call, clock-out, resolve the call, over and over, for badge i + 1.
 * A 503 is retried (the write may have committed before the connection dropped: then clock-in and
 * clock-out answer 409 on the retry, which counts as done); anything else moves on.
 */
async function writer(i: number): Promise<void> {
  const key = keys[i];
  for (let round = 0; !stop; round++) {
    const externalId = `w${i}-${round}`;
    const steps: [string, string, object][] = [
      ['clock-in', '/admin/clock-in', { badge: i + 1 }],
      ['report', '/integrations/ingame/calls', { externalId, title: `Brand ${externalId}` }],
      ['clock-out', '/admin/clock-out', { badge: i + 1 }],
      ['resolve', `/integrations/ingame/calls/${externalId}/resolve`, { resolution: 'reached' }],
    ];
    for (const [op, path, body] of steps) {
      for (;;) {
        const answer = await post(key, path, body, op);
        if (answer.status !== 503 && answer.status !== 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    }
  }
}

/** The other doors under the same faults: a tRPC query by a key, and the board's session route. */
const trpcStatuses: { status: number; body: any; retryAfter: string | null }[] = [];
const sessionStatuses: { status: number; body: any; retryAfter: string | null }[] = [];
async function otherDoors(): Promise<void> {
  const get = async (path: string, headers: Record<string, string>) => {
    const res = await fetch(`${server.url}${path}`, { headers, signal: AbortSignal.timeout(5000) }).catch(() => null);
    return res ? { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') } : { status: 0, body: null, retryAfter: null };
  };
  while (!stop) {
    trpcStatuses.push(await get('/trpc/timeclock.onDuty', { authorization: `Bearer ${admin}` }));
    sessionStatuses.push(await get('/auth/session', { cookie: session.cookie }));
    await new Promise((r) => setTimeout(r, 20));
  }
}

const readiness: number[] = [];
/** Polls /ready until it has been 503 and is 200 again; resolves with how long that took. */
async function outage(): Promise<number> {
  const began = Date.now();
  let seen503 = false;
  while (Date.now() - began < 30_000) {
    const ready = await fetch(`${server.url}/api/v1/ready`);
    readiness.push(ready.status);
    if (ready.status === 503) seen503 = true;
    if (ready.status === 200 && seen503) return Date.now() - began;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the server did not become ready again within 30 s');
}

const board = openBoard(server.url, { apiKey: admin, topics: ['onDuty', 'calls', 'overview'] });
t.teardown(() => board.close());
await board.until(() => board.state.stats.snapshots === 1);

t.test('PostgreSQL killed and shut down under 16 writers: the server survives, answers 503 at once, restarts it and serves again', async (t) => {
  const writers = Array.from({ length: WRITERS }, (_, i) => writer(i));
  const reader = otherDoors();
  const faults = Array.from({ length: rounds }, () => ['SIGKILL', 'SIGINT'] as const).flat();
  // Before, between and after the faults the writers run at full speed for 400 ms and at least
  // until WRITERS more writes succeeded (a box under load gets fewer done in 400 ms).
  const succeeded = () => answers.filter((a) => a.status === 200).length;
  const phases: number[] = [];
  const writesGoOn = async () => {
    const from = succeeded();
    const start = Date.now();
    while ((Date.now() - start < 400 || succeeded() - from < WRITERS) && Date.now() - start < 20_000) await new Promise((r) => setTimeout(r, 20));
    phases.push(succeeded() - from);
  };
  try {
    for (const signal of faults) {
      await writesGoOn();
      const pid = readPostmasterPid(clusterDir)!;
      const health = fetch(`${server.url}/api/v1/health`);
      t.comment(`${signal} at ${new Date().toISOString()}`);
      process.kill(pid, signal);
      const ms = await outage();
      t.equal((await health).status, 200, `${signal}: /health is liveness and stays 200`);
      const next = readPostmasterPid(clusterDir);
      t.ok(next !== null && next !== pid && isAlive(next), `${signal}: the server restarted its PostgreSQL (pid ${pid} -> ${next}); ready again after ${ms} ms`);
    }
    await writesGoOn();
  } finally {
    stop = true;
    await Promise.all([...writers, reader]);
  }

  t.same(crashes, [], 'no crash, no unhandled rejection');
  const byStatus: Record<number, number> = {};
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  t.comment(`${answers.length} writes, by status ${JSON.stringify(byStatus)}; ${faults.length} faults`);
  const odd = answers.filter((a) => ![200, 409, 503].includes(a.status)).map((a) => ({ ...a, at: new Date(a.at).toISOString() }));
  t.same(odd, [], 'every answer is 200, 503, or 409 for a retried clock write that had committed — never 500, never no answer');
  t.ok(phases.every((n) => n >= WRITERS), `writes succeeded before, between and after the faults (${phases.join(', ')})`);
  const unavailable = answers.filter((a) => a.status === 503);
  t.ok(unavailable.length > 0, 'the outages were seen as 503');
  t.same(unavailable.filter((a) => !isErrorBody(a.body)), [], 'every 503 body is exactly {error, reason}');
  t.same(unavailable.filter((a) => !(Number(a.retryAfter) >= 1)), [], 'every 503 says Retry-After');
  const slowest = Math.max(...unavailable.map((a) => a.ms));
  t.ok(slowest < 1500, `every 503 came at once (slowest ${slowest} ms)`);
  t.ok(readiness.includes(503) && readiness.at(-1) === 200, '/ready was 503 during the outages and 200 after');
  t.ok(log.lines.filter((l) => /the embedded PostgreSQL is running again/.test(l)).length >= faults.length, 'the restarts were logged');

  const trpc503 = trpcStatuses.filter((s) => s.status === 503);
  t.same(trpcStatuses.filter((s) => s.status !== 200 && s.status !== 503).map((s) => s.status), [], 'the tRPC door answered 200 or 503, never 500 or nothing');
  t.ok(trpc503.length > 0, 'and 503 during the outages');
  t.same([...new Set(trpc503.map((s) => `${s.body?.error?.json?.data?.code} ${s.body?.error?.json?.data?.retryAfterS} ${s.retryAfter}`))], ['SERVICE_UNAVAILABLE 1 1'], 'as SERVICE_UNAVAILABLE with retryAfterS and Retry-After');
  const session503 = sessionStatuses.filter((s) => s.status === 503);
  t.same(sessionStatuses.filter((s) => s.status !== 200 && s.status !== 503).map((s) => s.status), [], 'GET /auth/session answered 200 or 503, never 500 or nothing');
  t.ok(session503.length > 0 && session503.every((s) => isErrorBody(s.body) && s.retryAfter === '1'), 'its 503s are {error, reason} with Retry-After');
});

t.test('every write answered 200 is in the database', async (t) => {
  const sql = server.deps.sql;
  const shifts = await sql`select user_id, (extract(epoch from clock_in_at) * 1000)::float8 as cin, (extract(epoch from clock_out_at) * 1000)::float8 as cout from shifts where guild_id = ${G}`;
  const calls = await sql`select external_id, status, report_count from calls where guild_id = ${G}`;
  const near = (a: number | null, b: string) => a !== null && Math.abs(a - Date.parse(b)) < 1;
  const missing: string[] = [];
  let checked = 0;
  for (const a of answers.filter((x) => x.status === 200)) {
    checked++;
    const b = a.body;
    if (a.op === 'clock-in' && !shifts.some((s) => s.user_id === b.userId && near(s.cin, b.clockInAt))) missing.push(`clock-in ${b.userId} ${b.clockInAt}`);
    if (a.op === 'clock-out' && !shifts.some((s) => s.user_id === b.userId && near(s.cin, b.clockInAt) && near(s.cout, b.clockOutAt))) missing.push(`clock-out ${b.userId} ${b.clockOutAt}`);
    if (a.op === 'report' && !calls.some((c) => c.external_id === b.externalId && c.report_count >= b.reportCount)) missing.push(`report ${b.externalId}`);
    if (a.op === 'resolve' && !calls.some((c) => c.external_id === b.externalId && c.status === 'resolved')) missing.push(`resolve ${b.externalId}`);
  }
  t.same(missing, [], `all ${checked} acknowledged writes are there`);
});

t.test('the board ends equal to a fresh snapshot', async (t) => {
  const [head] = await server.deps.sql`select seq::int from event_streams where guild_id = ${G}`;
  await board.until(() => board.state.seq === head.seq, 15_000);
  const fresh = openBoard(server.url, { apiKey: admin, topics: ['onDuty', 'calls', 'overview'] });
  t.teardown(fresh.close);
  await fresh.until(() => fresh.state.seq === head.seq);
  t.same(board.state.topics, fresh.state.topics, 'same on-duty list, open calls and counters');
  t.equal(board.state.stats.gaps, 0, 'no gap went unrepaired');
});
