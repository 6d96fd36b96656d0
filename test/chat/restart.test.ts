/**
 * The panel survives restarts: the message id is stored, so a server started again (a real
 * `serve` process, stopped with SIGTERM) edits the same message instead of posting a new one.
 */
import t from 'tap';
import { freshDatabase } from '../helpers/db.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { call } from '../helpers/server.ts';
import { startDiscordStandIn } from '../helpers/discord-standin.ts';
import { CHANNEL, crew, discordAdmin, GUILD, serveProcess, until } from '../helpers/discord-bot.ts';

const discord = await startDiscordStandIn(t);
discord.addGuild({ id: GUILD, name: 'Wache Nord', channels: [{ id: CHANNEL, name: 'stempeluhr' }] });
discord.addMember(GUILD, discordAdmin);
const db = await freshDatabase();
t.teardown(db.drop);
await seedGuild(db.sql, GUILD, crew);
const key = await unscopedKey(db.sql, GUILD);
t.teardown(() => db.sql.end({ timeout: 1 }));
const env = { ...discord.env(), DATABASE_URL: db.url };

t.test('after a restart the same panel message is edited', async (t) => {
  let ready = discord.waitForReady(20_000);
  const first = await serveProcess(t, env);
  await ready;
  await discord.slash(GUILD, discordAdmin.id, 'panel', { channelId: CHANNEL });
  const [{ message_id: messageId }] = await db.sql`select message_id from chat_panels where guild_id = ${GUILD}`;
  first.child.kill('SIGTERM');
  await first.exited;
  const [lease] = await db.sql`select count(*)::int as n from chat_gateway`;
  t.equal(lease.n, 0, 'a server that stops gives the gateway lease back at once');

  ready = discord.waitForReady(20_000);
  const second = await serveProcess(t, env);
  await ready;
  t.equal((await call(second.url, 'POST', '/api/v1/admin/clock-in', { key, body: { badge: 1 } })).status, 200);
  await until(() => (discord.messages.get(messageId)!.embeds[0].description as string).includes('Anna Admin'), 'the old message edited', 4_000);
  t.equal(discord.channelMessages(CHANNEL).filter((m) => !m.deleted).length, 1, 'no second panel was posted');
});
