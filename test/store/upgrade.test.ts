import t from 'tap';
import { migrate } from '../../server/store/migrate.ts';
import { databaseBefore, migrationFiles } from '../helpers/db.ts';
import { createMemoryBus } from '../../server/hub/bus.ts';
import { inGuildTx } from '../../server/store/tx.ts';

/**
 * An existing database at migration 0004 (events.deltas jsonb, a stream row only for guilds that
 * had an event), with stored events, upgraded by `migrate`.
 */
const { sql, db } = await databaseBefore(t, '0005');
const deltas = { onDuty: [{ op: 'upsert', key: 'u1', value: { nickname: 'Ä "quoted"', since: 1795440564938 } }], overview: [{ op: 'add', field: 'onDuty', by: 1 }] };
await sql`insert into guilds (id, name) values ('g', 'G'), ('quiet', 'Never had an event')`;
await sql`insert into people (guild_id, user_id, nickname, badge) values ('g', 'u1', 'N', '01')`;
await sql`insert into event_streams (guild_id, epoch, seq) values ('g', 'e1', 1)`;
await sql`insert into events (guild_id, seq, topics, deltas) values ('g', 1, '{onDuty,overview}', ${sql.json(deltas)})`;

t.test('0005 on a database with events: they keep their deltas, as json', async (t) => {
  const applied = await migrate(sql);
  t.same(applied, migrationFiles.filter((f) => f >= '0005'), 'only the newer files are applied');
  const [row] = await sql`select deltas, pg_typeof(deltas)::text as type from events where guild_id = 'g' and seq = 1`;
  t.equal(row.type, 'json');
  t.same(row.deltas, deltas, 'the stored event reads back the same');
});

t.test('after 0005 a shift still needs an existing person of the guild', async (t) => {
  await sql`insert into shifts (guild_id, user_id) values ('g', 'u1')`;
  await t.rejects(sql`insert into shifts (guild_id, user_id) values ('g', 'nobody')`, { code: '23503' });
  await t.rejects(sql`insert into shifts (guild_id, user_id) values ('other-guild', 'u1')`, { code: '23503' });
});

t.test('after 0006 every guild has its stream: kept where it was, created at seq 0 where it was not', async (t) => {
  const streams = await sql`select guild_id, epoch, seq::int from event_streams order by guild_id`;
  t.same(streams.map((s) => [s.guild_id, s.seq]), [['g', 1], ['quiet', 0]]);
  t.equal(streams[0].epoch, 'e1', 'an existing stream keeps its epoch: live boards resume across the upgrade');
  t.match(streams[1].epoch, /^\w{8}$/);
  await inGuildTx(db, createMemoryBus(), 'quiet', async (tx) => tx.emit('onDuty', { op: 'remove', key: 'u1' }));
  await inGuildTx(db, createMemoryBus(), 'g', async (tx) => tx.emit('onDuty', { op: 'remove', key: 'u1' }));
  const events = await sql`select guild_id, seq::int from events order by guild_id, seq`;
  t.same(events.map((e) => [e.guild_id, e.seq]), [['g', 1], ['g', 2], ['quiet', 1]], 'the next events take the next numbers');
  await t.rejects(sql`insert into guilds (id, name) values ('streamless', 'S')`, { code: '23503' }, 'a guild without a stream is refused');
});
