/**
 * A transaction's connection closed under it (the backend terminated, as when PostgreSQL restarts):
 * the transaction fails with a connection error, nothing crashes, nothing is sent on the dead
 * connection, and the pool serves the next transactions. postgres.js alone writes the next query
 * of a reserved connection to its closed socket from a timer, which kills the process.
 */
import t from 'tap';
import { freshDatabase } from '../helpers/db.ts';
import { createMemoryBus } from '../../server/hub/bus.ts';
import { inGuildTx } from '../../server/store/tx.ts';
import { connect, renewConnections } from '../../server/store/db.ts';
import { isConnectionFailure } from '../../server/store/faults.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';

const crashes: string[] = [];
process.on('unhandledRejection', (err) => crashes.push(`unhandled rejection: ${(err as Error)?.stack ?? err}`));
process.on('uncaughtException', (err) => crashes.push(`uncaught exception: ${err.stack ?? err}`));

const db = await freshDatabase();
t.teardown(db.drop);
const { sql } = db;
const admin = connect(db.url, 1);
t.teardown(() => admin.end({ timeout: 1 }));
const G = 'g-lost';
await insertGuild(sql, G, 'Lost');
const bus = createMemoryBus();

/** Terminates backend `pid` and waits until it is gone and the client had time to see its socket close. */
async function terminate(pid: number) {
  await admin`select pg_terminate_backend(${pid})`;
  while ((await admin`select 1 from pg_stat_activity where pid = ${pid}`).length) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 100));
}

/** `promise`, or a rejection after `ms`: a transaction that never settles fails the test instead of hanging it. */
function within<T>(promise: Promise<T>, ms = 10_000): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no outcome within ${ms} ms`)), ms).unref())]);
}

const settle = () => new Promise((r) => setTimeout(r, 200)); // timers of postgres.js that would throw have run

t.test('a transaction whose connection closed between two statements fails with a connection error; the next ones run', async (t) => {
  for (let i = 0; i < 3; i++) { // two at once: one on the warm connection, one from the pool
    const errs = await Promise.all([0, 1].map((j) => within(inGuildTx(sql, bus, G, async (tx) => {
      const [{ pid }] = await tx.sql`select pg_backend_pid() as pid`;
      tx.emit('units', { op: 'test', i, j });
      await terminate(pid);
      await tx.sql`select 'after the loss'`;
    })).then(() => null, (e: unknown) => e)));
    t.ok(errs.every(isConnectionFailure), `round ${i}: both failed as a lost connection (${errs.map((e) => (e as Error)?.message).join('; ')})`);
  }
  await settle();
  const results = await within(Promise.all(Array.from({ length: 12 }, (_, i) => inGuildTx(sql, bus, G, async (tx) => {
    tx.emit('units', { op: 'test', after: i });
    return (await tx.sql`select ${i}::int as n`)[0].n;
  }))));
  t.same(results, Array.from({ length: 12 }, (_, i) => i), 'twelve transactions at once commit afterwards');
  const [{ seq }] = await sql`select seq::int from event_streams where guild_id = ${G}`;
  t.equal(seq, 12, 'and only they took event numbers: the lost ones wrote nothing');
  t.same(crashes, [], 'no crash, no unhandled rejection');
});

t.test('the same for sql.begin, and a statement pipelined after the loss is not sent', async (t) => {
  const err = await within(sql.begin(async (tx) => {
    const [{ pid }] = await tx`select pg_backend_pid() as pid`;
    await terminate(pid);
    await Promise.all([tx`select 1`, tx`select 2`]);
  })).then(() => null, (e: unknown) => e);
  t.ok(isConnectionFailure(err), `failed as a lost connection (${(err as Error)?.message})`);
  await settle();
  t.same(await within(sql.begin(async (tx) => [await tx`select 1 as one`])), [[{ one: 1 }]], 'the next transaction commits');
  t.same(crashes, [], 'no crash, no unhandled rejection');
});

t.test('renewed connections: the next queries run on new backends, the old ones are ended', async (t) => {
  const before = (await sql`select pg_backend_pid() as pid`)[0].pid;
  renewConnections(sql);
  const after = (await sql`select pg_backend_pid() as pid`)[0].pid;
  t.not(after, before, 'a new backend');
  for (let i = 0; i < 50 && (await admin`select 1 from pg_stat_activity where pid = ${before}`).length; i++) await new Promise((r) => setTimeout(r, 100));
  t.same(await admin`select 1 from pg_stat_activity where pid = ${before}`, [], 'the old one is gone');
});
