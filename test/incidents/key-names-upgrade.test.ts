import t from 'tap';
import { migrate } from '../../server/store/migrate.ts';
import { databaseBefore, migrationFiles } from '../helpers/db.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';

/**
 * A database at migration 0007, where calls taken and sheets written by API keys carry no name,
 * upgraded by `migrate`: the records get their key's name, and timelines take the new entry kinds.
 */
const { sql } = await databaseBefore(t, '0008');
await insertGuild(sql, 'g', 'G');
await insertGuild(sql, 'h', 'H');
const [kept] = await sql`insert into api_keys (guild_id, name, key_hash, last4) values ('g', 'Leitstelle Nord', '\\x01', 'abcd') returning id::text`;
const [other] = await sql`insert into api_keys (guild_id, name, key_hash, last4) values ('h', 'Fremd', '\\x02', 'efgh') returning id::text`;
const gone = String(Number(kept.id) + 1000); // a key deleted before the upgrade
const [call] = await sql`insert into calls (guild_id, external_id, status, kind, priority, title, taken_by_kind, taken_by_id)
  values ('g', 'qb:1', 'taken', 'notruf', 2, 'T', 'key', ${kept.id}) returning id`;
await sql`insert into incidents (guild_id, number, keyword, priority, call_id, created_by_kind, created_by_id) values
  ('g', 1, 'T', 2, ${call.id}, 'key', ${kept.id}), ('g', 2, 'U', 2, null, 'key', ${gone}), ('g', 3, 'V', 2, null, 'key', ${other.id})`;
await sql`insert into incident_entries (guild_id, number, kind, text, by_kind, by_id, by_name) values
  ('g', 1, 'created', 'a', 'key', ${kept.id}, null), ('g', 2, 'created', 'b', 'key', ${gone}, null),
  ('g', 1, 'note', 'c', 'session', 'u1', 'Dora')`;

t.test('0008: records of existing keys get the key\'s name; a deleted key\'s and another guild\'s key id stay unnamed', async (t) => {
  await t.rejects(sql`insert into incident_entries (guild_id, number, kind, text, by_kind, by_id) values ('g', 1, 'report', 'x', 'key', '1')`, { code: '23514' }, 'before: no report entries');
  t.same(await migrate(sql), migrationFiles.filter((f) => f >= '0008'));
  t.same((await sql`select taken_by_name from calls where guild_id = 'g'`).map((r) => r.taken_by_name), ['Leitstelle Nord']);
  t.same((await sql`select number, created_by_name from incidents where guild_id = 'g' order by number`).map((r) => [r.number, r.created_by_name]),
    [[1, 'Leitstelle Nord'], [2, null], [3, null]], 'a key of another guild is not this guild\'s key');
  t.same((await sql`select text, by_name from incident_entries where guild_id = 'g' order by id`).map((r) => [r.text, r.by_name]),
    [['a', 'Leitstelle Nord'], ['b', null], ['c', 'Dora']]);
});

t.test('after 0008 a timeline takes report and resolved entries, and still nothing else', async (t) => {
  await sql`insert into incident_entries (guild_id, number, kind, text, by_kind, by_id) values
    ('g', 1, 'report', 'Erneute Meldung (2.): T', 'key', '1'), ('g', 1, 'resolved', 'Meldung qb:1 vom Spiel abgeschlossen: reached', 'key', '1')`;
  await t.rejects(sql`insert into incident_entries (guild_id, number, kind, text, by_kind, by_id) values ('g', 1, 'other', 'x', 'key', '1')`, { code: '23514' });
});
