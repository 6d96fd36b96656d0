import t from 'tap';
import { migrate } from '../../server/store/migrate.ts';
import { databaseBefore, migrationFiles } from '../helpers/db.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';

/**
 * 0020 (Alarmieren) on a database whose guilds predate it: each gets code A "Alarmiert" (alarm:
 * true) after its last status and FMS 3 acknowledging; a guild's own A is kept; sheets and their
 * units keep their rows, with no alarm yet; the guild setting starts at 60 s.
 */
const { sql } = await databaseBefore(t, '0020');
for (const [id, name] of [['plain', 'Plain'], ['own', 'Own A'], ['empty', 'Catalogue cleared']]) await insertGuild(sql, id, name);
await sql`insert into unit_statuses (guild_id, code, label, color, alarm, position) values ('own', 'A', 'Ausgerückt', '#123456', false, 4)`;
await sql`update unit_statuses set position = 20 where guild_id = 'plain' and code = '8'`;
await sql`delete from unit_statuses where guild_id = 'empty'`;
await sql`insert into units (guild_id, callsign, status) values ('plain', 'RTW 1', '2')`;
await sql`insert into incident_counters (guild_id, last_number) values ('plain', 1)`;
await sql`insert into incidents (guild_id, number, keyword, priority, created_by_kind, created_by_id) values ('plain', 1, 'Alt', 2, 'system', 'x')`;
await sql`insert into incident_units (guild_id, number, unit_id) select 'plain', 1, id from units where guild_id = 'plain'`;

t.test('0020 on guilds that predate it', async (t) => {
  const applied = await migrate(sql);
  t.same(applied, migrationFiles.filter((f) => f >= '0020'));
  const a = await sql`select guild_id, label, color, alarm, acknowledges, position from unit_statuses where code = 'A' order by guild_id`;
  t.same(a.map((r) => [r.guild_id, r.label, r.alarm, r.position]), [['own', 'Ausgerückt', false, 4], ['plain', 'Alarmiert', true, 21]],
    'A after the last status; a guild\'s own A kept; a cleared catalogue stays empty (onboarding fills it)');
  const ack = await sql`select guild_id, code from unit_statuses where acknowledges order by guild_id, code`;
  t.same(ack.map((r) => [r.guild_id, r.code]), [['own', '3'], ['plain', '3']]);
  const [iu] = await sql`select alarmed_at, acknowledged_at from incident_units where guild_id = 'plain'`;
  t.same(iu, { alarmed_at: null, acknowledged_at: null }, 'an assigned unit has no alarm');
  t.same((await sql`select alarm_ack_timeout_s from guilds where id in ('plain', 'own', 'empty')`).map((r) => r.alarm_ack_timeout_s), [60, 60, 60]);
  await t.rejects(sql`update guilds set alarm_ack_timeout_s = 5 where id = 'plain'`, { code: '23514' }, '10..600');
  await insertGuild(sql, 'new', 'New');
  const fresh = await sql`select code, alarm, acknowledges from unit_statuses where guild_id = 'new' and (alarm or acknowledges) order by code`;
  t.same(fresh.map((r) => [r.code, r.alarm, r.acknowledges]), [['0', true, false], ['3', false, true], ['A', true, false]], 'a new guild is seeded with both');
});
