/**
 * Two nodes on one PostgreSQL and one Redis, the first a real `serve` process: exactly one holds
 * the Discord gateway, a clock-in on either node is one panel edit, and when the holder is killed
 * (SIGKILL: no goodbye, its lease just stops being renewed) the other node takes the gateway over
 * and edits the panel.
 */
import t from 'tap';
import { freshDatabase } from '../helpers/db.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { startRedis } from '../helpers/redis.ts';
import { call } from '../helpers/server.ts';
import { startDiscordStandIn } from '../helpers/discord-standin.ts';
import { botWorld, CHANNEL, crew, discordAdmin, editsOf, GUILD, panelMessage, panelText, serveProcess, until } from '../helpers/discord-bot.ts';

const redis = await startRedis(t);
const discord = await startDiscordStandIn(t);
discord.addGuild({ id: GUILD, name: 'Wache Nord', channels: [{ id: CHANNEL, name: 'stempeluhr' }] });
for (const p of crew) discord.addMember(GUILD, { id: p.userId, username: p.nickname.split(' ')[0].toLowerCase(), globalName: p.nickname });
discord.addMember(GUILD, discordAdmin);

const db = await freshDatabase();
t.teardown(db.drop);
await seedGuild(db.sql, GUILD, crew);
const key = await unscopedKey(db.sql, GUILD);
await db.sql.end({ timeout: 1 });

// Node 1: a real server process, which takes the gateway first.
const ready = discord.waitForReady(20_000);
const { url: node1Url, child } = await serveProcess(t, { ...discord.env(), DATABASE_URL: db.url, REDIS_URL: redis.url });
await ready;

// Node 2: in process, renewing often so that the takeover is quick once node 1's lease expires.
const w = await botWorld(t, { discord, databaseUrl: db.url, env: { REDIS_URL: redis.url }, chat: { lease: { ttlMs: 6_000, renewMs: 500 } } });
const node2 = w.server;

t.test('exactly one node holds the gateway', async (t) => {
  await new Promise((r) => setTimeout(r, 1_500)); // node 2 has tried the lease three times
  t.equal(discord.identifies, 1, 'one IDENTIFY');
  t.equal(discord.openSockets(), 1, 'one gateway socket');
  const [lease] = await node2.sql`select connected, bot_name from chat_gateway where platform = 'discord'`;
  t.equal(lease.connected, true, 'the holder reports the bot connected');
  const status = await node2.deps.chat.status();
  t.equal(status.connected, true, 'the node without the gateway knows it too');
});

t.test('a clock-in on either node is exactly one panel edit, done by the holder', async (t) => {
  await discord.slash(GUILD, discordAdmin.id, 'panel', { channelId: CHANNEL });
  const message = (await panelMessage(w))!;
  await new Promise((r) => setTimeout(r, 1_600));
  const before = editsOf(w, message.id);
  t.equal((await w.api('POST', '/admin/clock-in', { key, body: { badge: 1 } })).status, 200, 'written on node 2');
  await until(() => panelText(discord.messages.get(message.id)!).includes('Anna Admin'), 'the edit', 2_000);
  await new Promise((r) => setTimeout(r, 1_000));
  t.equal(editsOf(w, message.id) - before, 1, 'one edit, not one per node');

  t.equal((await call(node1Url, 'POST', '/api/v1/admin/clock-in', { key, body: { badge: 2 } })).status, 200, 'written on node 1');
  await until(() => panelText(discord.messages.get(message.id)!).includes('Ben Crew'), 'the edit', 3_000);
  await new Promise((r) => setTimeout(r, 1_600));
  t.equal(editsOf(w, message.id) - before, 2, 'again one edit');
});

t.test('the holder is killed: the other node takes the gateway over and edits the panel', async (t) => {
  const message = (await panelMessage(w))!;
  const killedAt = Date.now();
  child.kill('SIGKILL');
  await until(() => discord.identifies === 2 && discord.openSockets() === 1, 'node 2 connecting to the gateway', 15_000);
  const ms = Date.now() - killedAt;
  t.ok(ms < 10_000, `taken over ${ms} ms after the kill`);
  t.equal((await w.api('POST', '/admin/clock-out', { key, body: { badge: 1 } })).status, 200);
  await until(() => !panelText(discord.messages.get(message.id)!).includes('Anna Admin'), 'the edit by the new holder', 3_000);
  const answer = await discord.button(GUILD, crew[1].userId, message.id, 'dt:clock:out');
  t.match(answer.data.content, /Ausgestempelt/, 'the new holder answers the buttons');
});
