import t from 'tap';
import { freshDatabase } from '../helpers/db.ts';
import { createMemoryBus } from '../../server/hub/bus.ts';
import { inGuildTx } from '../../server/store/tx.ts';
import { readdirSync } from 'node:fs';
import { migrate, sqlDir } from '../../server/store/migrate.ts';
import { connect } from '../../server/store/db.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import type { GuildEvent } from '../../contract/topics.ts';
import { loadGuildSnapshot } from '../../server/hub/snapshot.ts';

const db = await freshDatabase();
t.teardown(db.drop);
const { sql } = db;
const bus = createMemoryBus();
const published: GuildEvent[] = [];
bus.onEvents((evs) => published.push(...evs));
await insertGuild(sql, 'g1', 'One');
await insertGuild(sql, 'g2', 'Two');
const actor = { kind: 'system' as const, id: 'test' };

t.test('a guild is created with its stream at seq 0; the snapshot of a guild that does not exist is NOT_FOUND', async (t) => {
  t.ok(await insertGuild(sql, 'g-new', 'New'));
  const [stream] = await sql`select epoch, seq::int from event_streams where guild_id = 'g-new'`;
  t.equal(stream?.seq, 0, 'no events yet');
  const snap = await loadGuildSnapshot(db.db, 'g-new');
  t.same([snap.epoch, snap.seq], [stream.epoch, 0], 'the hub starts from that stream');
  t.notOk(await insertGuild(sql, 'g-new', 'Again'), 'an existing id is refused');
  t.equal((await sql`select count(*)::int as n from event_streams where guild_id = 'g-new'`)[0].n, 1, 'and keeps its one stream');
  await t.rejects(loadGuildSnapshot(db.db, 'no-such-guild'), { code: 'NOT_FOUND' });
});

t.test('concurrent transactions get contiguous seqs per guild, in commit order, written with the change', async (t) => {
  await Promise.all(Array.from({ length: 40 }, (_, i) => inGuildTx(db.db, bus, i % 2 ? 'g1' : 'g2', async (tx) => {
    tx.emit('units', { op: 'n', i });
    if (i % 3) tx.emit('alarm', { op: 'n', i });
    tx.audit('test.write', actor, { i });
  })));
  for (const g of ['g1', 'g2']) {
    const rows = await sql`select seq::int, topics, deltas from events where guild_id = ${g} order by seq`;
    t.same(rows.map((r) => r.seq), Array.from({ length: 20 }, (_, i) => i + 1), `${g}: 1..20 without gaps`);
    t.ok(rows.every((r) => r.topics.includes('units') && r.deltas.units.length === 1), 'one event per transaction with its topics');
    const [stream] = await sql`select seq::int from event_streams where guild_id = ${g}`;
    t.equal(stream.seq, 20);
  }
  const audits = await sql`select count(*)::int as n from audit_log where action = 'test.write'`;
  t.equal(audits[0].n, 40, 'one audit row per transaction');
  const bySeq = new Map<string, number[]>();
  for (const e of published) bySeq.set(e.guildId, [...(bySeq.get(e.guildId) ?? []), e.seq]);
  t.same([...bySeq.get('g1')!].sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 1), 'every committed event was published once');
});

t.test('events reach the bus only after commit, with the committed seq and epoch', async (t) => {
  published.length = 0;
  let seenInside = -1;
  await inGuildTx(db.db, bus, 'g1', async (tx) => {
    tx.emit('onDuty', { op: 'upsert', key: 'u1' });
    tx.emit('onDuty', { op: 'remove', key: 'u2' });
    tx.emit('overview', { op: 'add', field: 'onDuty', by: 1 });
    seenInside = published.length;
  });
  t.equal(seenInside, 0, 'nothing published before commit');
  t.equal(published.length, 1, 'one event per transaction');
  t.same(published[0].deltas, { onDuty: [{ op: 'upsert', key: 'u1' }, { op: 'remove', key: 'u2' }], overview: [{ op: 'add', field: 'onDuty', by: 1 }] });
  const [row] = await sql`select s.epoch, e.seq::int, e.topics, e.deltas from events e join event_streams s using (guild_id)
    where e.guild_id = 'g1' order by e.seq desc limit 1`;
  t.equal(published[0].epoch, row.epoch);
  t.equal(published[0].seq, row.seq);
  t.same(row.topics, ['onDuty', 'overview']);
  t.same(row.deltas, published[0].deltas);
});

t.test('a transaction without topics writes its audit row but takes no seq', async (t) => {
  published.length = 0;
  const [before] = await sql`select seq::int from event_streams where guild_id = 'g1'`;
  await inGuildTx(db.db, bus, 'g1', async (tx) => tx.audit('test.quiet', actor));
  const [after] = await sql`select seq::int from event_streams where guild_id = 'g1'`;
  t.equal(after.seq, before.seq);
  t.equal(published.length, 0);
  t.equal((await sql`select * from audit_log where action = 'test.quiet'`).length, 1);
});

t.test('a failed transaction leaves no event, no audit row and no seq gap', async (t) => {
  published.length = 0;
  const before = await sql`select seq::int from event_streams where guild_id = 'g1'`;
  await t.rejects(inGuildTx(db.db, bus, 'g1', async (tx) => {
    tx.emit('onDuty', { op: 'upsert', key: 'u9' });
    tx.audit('test.failed', actor);
    await tx.sql`select 1/0`;
  }));
  t.equal(published.length, 0);
  const after = await sql`select seq::int from event_streams where guild_id = 'g1'`;
  t.same(after, before);
  const audits = await sql`select * from audit_log where action = 'test.failed'`;
  t.equal(audits.length, 0);
  await inGuildTx(db.db, bus, 'g1', async (tx) => tx.emit('onDuty', { op: 'x' }));
  t.equal(published[0].seq, before[0].seq + 1, 'the next event takes the next number');
});

t.test('migrations: running again, and from two connections at once, applies each file once', async (t) => {
  t.same(await migrate(sql), [], 'already migrated: nothing to apply');
  const a = connect(db.url, 2);
  const b = connect(db.url, 2);
  const results = await Promise.all([migrate(a), migrate(b), migrate(a)]);
  t.same(results, [[], [], []]);
  await a.end();
  await b.end();
});

t.test('migrations from scratch in two processes at once', async (t) => {
  const fresh = await freshEmptyDatabase();
  t.teardown(fresh.drop);
  const conns = [connect(fresh.url, 2), connect(fresh.url, 2), connect(fresh.url, 2)];
  const results = await Promise.all(conns.map((c) => migrate(c)));
  const files = readdirSync(sqlDir).filter((f) => f.endsWith('.sql')).sort();
  t.ok(files.length > 0);
  t.equal(results.filter((r) => r.length > 0).length, 1, 'exactly one runner applied anything');
  t.same(results.flat(), files, 'that runner applied every file once, in order');
  const rows = await conns[0]`select name from schema_migrations order by name`;
  t.same(rows.map((r) => r.name), files);
  await Promise.all(conns.map((c) => c.end()));
});

async function freshEmptyDatabase() {
  const admin = connect(process.env.TEST_ADMIN_DATABASE_URL!, 1);
  const name = `e_${Math.random().toString(36).slice(2, 10)}`;
  await admin.unsafe(`create database ${name}`);
  const url = process.env.TEST_ADMIN_DATABASE_URL!.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
  return { url, drop: async () => { await admin.unsafe(`drop database ${name} with (force)`); await admin.end(); } };
}

t.test('a deferred write that fails rolls the transaction back and is what the caller gets, with or without topic ops', async (t) => {
  await sql`create table if not exists deferred_probe (id int primary key)`;
  for (const withOps of [false, true]) {
    published.length = 0;
    const [before] = await sql`select seq::int from event_streams where guild_id = 'g1'`;
    await t.rejects(inGuildTx(db.db, bus, 'g1', async (tx) => {
      await tx.sql`insert into deferred_probe values (${withOps ? 1 : 2})`;
      tx.defer(tx.sql`insert into deferred_probe values (${withOps ? 1 : 2})`.execute()); // the same key again
      if (withOps) tx.emit('units', { op: 'n' });
    }), { message: /duplicate key/ }, `${withOps ? 'with' : 'without'} an event: the write's own error, not "transaction is aborted"`);
    t.equal((await sql`select count(*)::int as n from deferred_probe where id = ${withOps ? 1 : 2}`)[0].n, 0, 'nothing of it committed');
    const [after] = await sql`select seq::int from event_streams where guild_id = 'g1'`;
    t.equal(after.seq, before.seq, 'no event written: the outbox statement runs inside the transaction, before COMMIT');
    t.equal(published.length, 0, 'nothing published');
  }
});

t.test('a statement neither awaited nor deferred that fails still fails the transaction (COMMIT answered ROLLBACK)', async (t) => {
  await sql`create table if not exists deferred_probe (id int primary key)`;
  await t.rejects(inGuildTx(db.db, bus, 'g1', async (tx) => {
    await tx.sql`insert into deferred_probe values (3)`;
    tx.sql`insert into deferred_probe values (3)`.execute().catch(() => {}); // forgotten
  }), { message: /rolled back/ });
  t.equal((await sql`select count(*)::int as n from deferred_probe where id = 3`)[0].n, 0, 'nothing committed');
  await inGuildTx(db.db, bus, 'g1', async (tx) => { await tx.sql`insert into deferred_probe values (4)`; });
  t.equal((await sql`select count(*)::int as n from deferred_probe where id = 4`)[0].n, 1, 'the connection serves the next transaction');
});
