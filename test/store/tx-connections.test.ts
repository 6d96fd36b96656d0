/**
 * Transactions run on connections of their own (store/tx-connections.ts), lent last-returned first:
 * a burst spreads over several, a trickle after it stays on one backend (warm caches; a pool's idle
 * connections go round first in, first out), and one lost while idle is reconnected for the next
 * transaction without a failure.
 */
import t from 'tap';
import { freshDatabase } from '../helpers/db.ts';
import { createMemoryBus } from '../../server/hub/bus.ts';
import { inGuildTx } from '../../server/store/tx.ts';
import { connect } from '../../server/store/db.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';

const fresh = await freshDatabase();
t.teardown(fresh.drop);
const { db } = fresh;
const G = 'g-tx';
await insertGuild(db.sql, G, 'Transactions');
const bus = createMemoryBus();

/** The transaction backends of this test's database, with their last statement. */
async function txBackends() {
  return db.sql`select pid, query from pg_stat_activity
    where datname = current_database() and application_name = 'dispatch-terminal/tx' order by pid`;
}
const pidOf = (write: number) => inGuildTx(db, bus, G, async (tx) => {
  tx.emit('units', { op: 'test', write });
  return (await tx.sql`select pg_backend_pid() as pid`)[0].pid as number;
});

t.test('a burst spreads over several connections; the trickle after it runs on one backend', async (t) => {
  const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => pidOf(i)));
  t.ok(new Set(burst).size > 1, `the burst used ${new Set(burst).size} connections`);
  const trickle: number[] = [];
  for (let i = 0; i < 10; i++) trickle.push(await pidOf(100 + i));
  t.equal(new Set(trickle).size, 1, 'every write of the trickle ran on the same backend');
  t.ok(burst.includes(trickle[0]), 'one the burst had opened');
  const [{ seq }] = await db.sql`select seq::int from event_streams where guild_id = ${G}`;
  t.equal(seq, 18, 'every write committed its event');
});

t.test('a transaction ends on its connection with COMMIT, after its event', async (t) => {
  let inside = '';
  let pid = 0;
  await inGuildTx(db, bus, G, async (tx) => {
    tx.emit('units', { op: 'test' });
    [{ pid }] = await tx.sql`select pg_backend_pid() as pid`;
    inside = (await db.sql`select query from pg_stat_activity where pid = ${pid}`)[0].query;
  });
  t.match(inside, /pg_backend_pid/, 'its statements ran on a transaction connection');
  const backend = (await txBackends()).find((b) => b.pid === pid);
  t.match(backend?.query, /^commit$/i, 'which ended with COMMIT (the event was written before it)');
});

t.test('a connection lost while idle is reconnected; no transaction fails', async (t) => {
  const before = await pidOf(200);
  const admin = connect(fresh.url, 1);
  t.teardown(() => admin.end({ timeout: 1 }));
  await admin`select pg_terminate_backend(${before})`;
  while ((await admin`select 1 from pg_stat_activity where pid = ${before}`).length) await new Promise((r) => setTimeout(r, 20));
  await new Promise((resolve) => setTimeout(resolve, 100)); // the client has seen its socket close
  const after = await pidOf(201);
  t.not(after, before, 'the next transaction committed, on a new backend');
  t.equal(await pidOf(202), after, 'and the one after it on the same');
});
