/**
 * Every way PostgreSQL can be stopped ends in a recovered server (issue 27, item 6): a real server
 * on its own embedded cluster, 8 writers clocking in and out by badge, and the postmaster sent
 * SIGTERM (smart shutdown: it refuses new connections and waits for the sessions it has to end),
 * SIGINT (fast), SIGQUIT (immediate) while they write. Each time the server must let go of its
 * connections, so that PostgreSQL can stop, restart it, and serve writes again within 30 s; every
 * write answered 200 must be in the database afterwards. Before the fix, a smart shutdown never
 * ended: the server kept its connections, and 503s and log lines went on for as long as one looked.
 */
import t from 'tap';
import { readPostmasterFile } from '../../server/store/pg-process.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { recordCrashes, serverOnOwnCluster, within } from '../helpers/faults.ts';

const WRITERS = 8;
const G = '270000000000000006';
const RECOVERY_MS = 30_000;

const crashes = recordCrashes();
const { server, clusterDir, log } = await serverOnOwnCluster(t, 'dt-pgstops-');
t.teardown(() => {
  stop = true;
});

await seedGuild(server.deps.sql, G, Array.from({ length: WRITERS }, (_, i) => ({ userId: `u${i}`, nickname: `Person ${i}`, badge: String(i + 1) })));
const key = await unscopedKey(server.deps.sql, G, 'writers');

interface Answer { op: 'in' | 'out'; status: number; body: any; at: number }
const answers: Answer[] = [];

async function clock(i: number, op: 'in' | 'out'): Promise<Answer> {
  const at = Date.now();
  let answer: Answer;
  try {
    const res = await fetch(`${server.url}/api/v1/admin/clock-${op}`, {
      method: 'POST', signal: AbortSignal.timeout(5000),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ badge: i + 1 }),
    });
    answer = { op, status: res.status, body: await res.json().catch(() => null), at };
  } catch (err) {
    answer = { op, status: 0, body: String(err), at };
  }
  answers.push(answer);
  return answer;
}

let stop = false;
/** Writer i clocks badge i + 1 in and out; a 409 means the last write committed although its answer was lost. */
async function writer(i: number): Promise<void> {
  let op: 'in' | 'out' = 'in';
  while (!stop) {
    const { status } = await clock(i, op);
    if (status === 200 || status === 409) op = op === 'in' ? 'out' : 'in';
    else await new Promise((r) => setTimeout(r, 50));
  }
}

const writers = Array.from({ length: WRITERS }, (_, i) => writer(i));
const ready = async () => (await fetch(`${server.url}/api/v1/ready`).catch(() => null))?.status === 200;

for (const signal of ['SIGTERM', 'SIGINT', 'SIGQUIT'] as const) {
  t.test(`${signal} to the postmaster under writers: PostgreSQL restarts and the server serves writes again`, async (t) => {
    await new Promise((r) => setTimeout(r, 500)); // writers at full speed
    const old = readPostmasterFile(clusterDir)!;
    t.equal(old.status, 'ready', 'the postmaster runs');
    const killedAt = Date.now();
    process.kill(old.pid, signal);
    const restarted = await within(RECOVERY_MS, () => {
      const now = readPostmasterFile(clusterDir);
      return now !== null && now.pid !== old.pid && now.status === 'ready';
    });
    t.ok(restarted !== null, `PostgreSQL stopped and was restarted${restarted === null ? ` — not within ${RECOVERY_MS / 1000} s: ${JSON.stringify(readPostmasterFile(clusterDir))}` : ` (${restarted} ms)`}`);
    const restartedAt = killedAt + (restarted ?? 0);
    const serving = restarted === null ? null : await within(RECOVERY_MS - (Date.now() - killedAt), async () => (await ready()) && answers.some((a) => a.status === 200 && a.at > restartedAt));
    t.ok(serving !== null, serving !== null
      ? `ready and writing again ${Date.now() - killedAt} ms after the ${signal}`
      : `not ready and writing again within ${RECOVERY_MS / 1000} s of the ${signal}`);
    t.comment(`${signal}: recovered in ${Date.now() - killedAt} ms`);
  });
}

t.test('every write answered 200 is in the database; nothing crashed; the log stayed short', async (t) => {
  stop = true;
  await Promise.all(writers);
  t.same(crashes, [], 'no crash, no unhandled rejection');
  const byStatus: Record<number, number> = {};
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  t.comment(`${answers.length} writes, by status ${JSON.stringify(byStatus)}`);
  t.same(Object.keys(byStatus).map(Number).filter((s) => ![200, 409, 503].includes(s)), [], 'every answer is 200, 503, or 409 for a retried clock write that had committed');

  const shifts = await server.deps.sql`select user_id, (extract(epoch from clock_in_at) * 1000)::float8 as cin, (extract(epoch from clock_out_at) * 1000)::float8 as cout from shifts where guild_id = ${G}`;
  const near = (a: number | null, b: string) => a !== null && Math.abs(a - Date.parse(b)) < 1;
  const ok = answers.filter((a) => a.status === 200);
  const missing = ok.filter(({ op, body: b }) => !shifts.some((s) => s.user_id === b.userId && near(s.cin, b.clockInAt) && (op === 'in' || near(s.cout, b.clockOutAt))));
  t.ok(ok.length > WRITERS * 3, `writes succeeded (${ok.length})`);
  t.same(missing.map((a) => `${a.op} ${a.body.userId} ${a.body.clockInAt}`), [], `all ${ok.length} acknowledged writes are there`);
  t.ok(log.lines.length < 60, `the server logged ${log.lines.length} lines for three stops (a smart shutdown logged hundreds per second before)`);
});
