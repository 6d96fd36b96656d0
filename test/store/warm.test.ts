import t from 'tap';
import { freshDatabase } from '../helpers/db.ts';
import { createMemoryBus } from '../../server/hub/bus.ts';
import { inGuildTx } from '../../server/store/tx.ts';
import { connect } from '../../server/store/db.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import { insertPerson } from '../../server/domains/people/store.ts';
import { closeShift, openShift } from '../../server/domains/timeclock/store.ts';

const db = await freshDatabase();
t.teardown(db.drop);
const { sql } = db;
const G = 'g-warm';
await insertGuild(sql, G, 'Warm');
const badges = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));
for (const b of badges) await insertPerson(sql, G, { userId: `u${b}`, nickname: `N${b}`, badge: b, rankId: null, isAdmin: false });

/** The backends of this test's database by application name, with their last statement. */
async function backends() {
  return sql`select pid, application_name as app, query from pg_stat_activity
    where datname = current_database() and application_name like 'dispatch-terminal%' and pid <> pg_backend_pid()`;
}
const warmBackend = async () => (await backends()).filter((b) => b.app === 'dispatch-terminal/warm');

t.test('a burst spills over to the pool; the trickle after it runs on the one warm backend', async (t) => {
  const opened = await Promise.all(badges.map((badge) => openShift(sql, G, { badge }, null)));
  t.ok(opened.every((o) => o.opened !== null), 'every clock-in of the burst committed');
  t.ok((await backends()).filter((b) => b.app === 'dispatch-terminal').length > 1, 'the burst used pool connections too');

  for (const badge of badges) {
    const closed = await closeShift(sql, G, { badge }, null);
    t.ok(closed.closed, `badge ${badge} clocked out`);
    const [warm] = await warmBackend();
    t.match(warm?.query, /update shifts s set clock_out_at/, 'the warm backend ran this clock-out');
  }
  t.equal((await warmBackend()).length, 1, 'one warm backend');
});

t.test('transactions take the warm connection when it is free, and leave it free', async (t) => {
  let inside: { query?: string } | undefined;
  await inGuildTx(sql, createMemoryBus(), G, async (tx) => {
    tx.emit('units', { op: 'test' });
    await tx.sql`select 'inside the warm transaction'`;
    [inside] = await warmBackend();
  });
  t.match(inside?.query, /inside the warm transaction/, 'the transaction ran on the warm backend');
  const [warm] = await warmBackend();
  t.match(warm.query, /^commit$/i, 'and ended there with COMMIT, after its event');
  const { opened } = await openShift(sql, G, { badge: '01' }, null);
  t.ok(opened, 'the next write found the warm connection free');
  t.match((await warmBackend())[0].query, /insert into shifts/);
  await closeShift(sql, G, { badge: '01' }, null);
});

t.test('a lost warm connection is reconnected; no write fails', async (t) => {
  const [before] = await warmBackend();
  const admin = connect(db.url, 1);
  t.teardown(() => admin.end({ timeout: 1 }));
  await admin`select pg_terminate_backend(${before.pid})`;
  // A write racing the loss itself may fail, like on any connection; this test is about the ones after it.
  while ((await admin`select 1 from pg_stat_activity where pid = ${before.pid}`).length) await new Promise((r) => setTimeout(r, 20));
  await new Promise((resolve) => setTimeout(resolve, 100)); // the client has seen its socket close
  const { opened } = await openShift(sql, G, { badge: '02' }, null);
  t.ok(opened, 'the clock-in after the loss committed');
  const after = await warmBackend();
  t.equal(after.length, 1);
  t.not(after[0].pid, before.pid, 'on a new backend');
  t.ok((await closeShift(sql, G, { badge: '02' }, null)).closed, 'and the clock-out too');
});
