import t from 'tap';
import { signIn } from '../helpers/fixtures.ts';
import { botWorld, CHANNEL, crew, discordAdmin, editsOf, GUILD, panelMessage, panelText, stranger, until } from '../helpers/discord-bot.ts';

const w = await botWorld(t);
const [anna, ben, cem, dora] = crew;

t.test('/panel by a Discord admin posts the German panel in the channel and stores it', async (t) => {
  const answer = await w.discord.slash(GUILD, discordAdmin.id, 'panel', { channelId: CHANNEL });
  t.equal(answer.data.flags & 64, 64, 'the answer is ephemeral');
  t.match(answer.data.content, /Stempeluhr-Panel/);
  const message = await panelMessage(w);
  t.ok(message, 'the panel message is stored');
  t.equal(message!.channelId, CHANNEL);
  t.match(panelText(message), /Stempeluhr · Guild 571000000000000001\nNiemand ist im Dienst\.\nIm Dienst: 0/);
  const buttons = message!.components[0].components.map((b: { label: string; custom_id: string }) => b.label);
  t.same(buttons, ['Einstempeln', 'Ausstempeln', 'Login']);
});

t.test('/panel by a member without rights is refused and posts nothing', async (t) => {
  const before = w.discord.channelMessages(CHANNEL).length;
  const answer = await w.discord.slash(GUILD, ben.userId, 'panel', { channelId: CHANNEL });
  t.match(answer.data.content, /nur Admins/);
  t.equal(answer.data.flags & 64, 64);
  t.equal(w.discord.channelMessages(CHANNEL).length, before);
});

t.test('a clock-in by badge over REST shows on the panel within 2 s', async (t) => {
  const message = (await panelMessage(w))!;
  const res = await w.api('POST', '/admin/clock-in', { key: w.key, body: { badge: 1 } });
  t.equal(res.status, 200);
  const ms = await until(() => panelText(w.discord.messages.get(message.id)!).includes('Anna Admin'), 'Anna on the panel', 2_000);
  t.ok(ms < 2_000, `on the panel after ${ms} ms`);
  t.match(panelText(w.discord.messages.get(message.id)!), /\*\*01\*\* Anna Admin · seit <t:\d+:R>\nIm Dienst: 1/);
});

t.test('the board\'s own clock-in (session, /me) and clock-out show on the panel', async (t) => {
  const session = await signIn(w.server, GUILD, ben.userId);
  t.equal((await w.api('POST', '/me/clock-in', { session, body: {} })).status, 200);
  await until(async () => panelText(await panelMessage(w)).includes('Ben Crew · Crew'), 'Ben on the panel', 2_000);
  t.equal((await w.api('POST', '/me/clock-out', { session, body: {} })).status, 200);
  await until(async () => !panelText(await panelMessage(w)).includes('Ben Crew'), 'Ben off the panel', 2_000);
  t.pass();
});

t.test('the panel buttons clock the member who presses in and out, with ephemeral answers', async (t) => {
  const message = (await panelMessage(w))!;
  const inAnswer = await w.discord.button(GUILD, ben.userId, message.id, 'dt:clock:in');
  t.match(inAnswer.data.content, /Eingestempelt um <t:\d+:t>/);
  t.equal(inAnswer.data.flags & 64, 64);
  await until(() => panelText(w.discord.messages.get(message.id)!).includes('Ben Crew'), 'Ben on the panel', 2_000);
  const [audit] = await w.server.sql`select action, actor_id from audit_log where guild_id = ${GUILD} and action = 'shift.clock_in' order by id desc limit 1`;
  t.same({ ...audit }, { action: 'shift.clock_in', actor_id: ben.userId }, 'audited as the member\'s own clock-in');

  t.match((await w.discord.button(GUILD, ben.userId, message.id, 'dt:clock:in')).data.content, /bereits eingestempelt/);
  t.match((await w.discord.button(GUILD, ben.userId, message.id, 'dt:clock:out')).data.content, /Ausgestempelt um/);
  t.match((await w.discord.button(GUILD, ben.userId, message.id, 'dt:clock:out')).data.content, /nicht eingestempelt/);
  await until(() => !panelText(w.discord.messages.get(message.id)!).includes('Ben Crew'), 'Ben off the panel', 2_000);

  t.match((await w.discord.button(GUILD, stranger.id, message.id, 'dt:clock:in')).data.content, /keinen Personaleintrag/);
  t.match((await w.discord.button(GUILD, cem.userId, message.id, 'dt:clock:in')).data.content, /keine Dienstnummer/);
  t.match((await w.discord.button(GUILD, dora.userId, message.id, 'dt:clock:in')).data.content, /Berechtigung/);
  t.match((await w.discord.button(GUILD, dora.userId, message.id, 'dt:clock:in', { locale: 'en-US' })).data.content, /lack the right/);
});

t.test('100 clock-ins in one second are at most two edits, and the panel ends right', async (t) => {
  const people = Array.from({ length: 100 }, (_, i) => ({ userId: `5730000000000${String(i).padStart(5, '0')}`, nickname: `Burst ${i}`, badge: String(100 + i) }));
  for (const p of people) await w.server.sql`insert into people (guild_id, user_id, nickname, badge, rank_id) values (${GUILD}, ${p.userId}, ${p.nickname}, ${p.badge}, 'crew')`;
  const message = (await panelMessage(w))!;
  await new Promise((r) => setTimeout(r, 1_600)); // no edit of earlier tests is pending
  const before = editsOf(w, message.id);
  const onDutyBefore = Number((await w.api('GET', '/admin/on-duty', { key: w.key })).body.count);
  await Promise.all(people.map((p, i) => new Promise((r) => setTimeout(r, i * 9)).then(() => w.api('POST', '/admin/clock-in', { key: w.key, body: { badge: Number(p.badge) } }))));
  const expected = onDutyBefore + 100;
  await until(() => panelText(w.discord.messages.get(message.id)!).includes(`Im Dienst: ${expected}`), `${expected} on the panel`, 3_000);
  await new Promise((r) => setTimeout(r, 1_600)); // an edit that was still due would have come by now
  t.ok(editsOf(w, message.id) - before <= 2, `${editsOf(w, message.id) - before} edits for 100 clock-ins`);
  t.match(panelText(w.discord.messages.get(message.id)!), /… und \d+ weitere|Burst 99/, 'a long list stays within Discord\'s limit');
  t.ok(w.discord.messages.get(message.id)!.embeds[0].description.length <= 4096);
  await w.server.sql`update shifts set clock_out_at = now() where guild_id = ${GUILD} and clock_out_at is null and user_id like '5730000000000%'`;
});

t.test('Discord rate limiting or down for 10 s: clock writes answer at once, the panel catches up', async (t) => {
  const message = (await panelMessage(w))!;
  w.discord.rateLimit({ count: 3, retryAfter: 1.5, match: /PATCH/ });
  let started = Date.now();
  t.equal((await w.api('POST', '/admin/clock-in', { key: w.key, body: { badge: 2 } })).status, 200);
  t.ok(Date.now() - started < 1_000, 'the clock-in did not wait for Discord');
  await until(() => panelText(w.discord.messages.get(message.id)!).includes('Ben Crew'), 'Ben on the panel after the 429s', 8_000);
  t.ok(w.discord.requests.some((r) => r.status === 429), 'Discord did answer 429');

  w.discord.down();
  started = Date.now();
  t.equal((await w.api('POST', '/admin/clock-out', { key: w.key, body: { badge: 2 } })).status, 200);
  t.ok(Date.now() - started < 1_000, 'the clock-out did not wait for Discord');
  await new Promise((r) => setTimeout(r, 10_000));
  t.match(panelText(w.discord.messages.get(message.id)!), /Ben Crew/, 'while Discord is down the panel cannot change');
  w.discord.up();
  const ms = await until(() => !panelText(w.discord.messages.get(message.id)!).includes('Ben Crew'), 'the panel catching up', 15_000);
  t.pass(`caught up ${ms} ms after Discord came back`);
});

t.test('a panel deleted in Discord is forgotten, and /panel posts a new one', async (t) => {
  const old = (await panelMessage(w))!;
  w.discord.deleteMessage(old.id);
  await w.api('POST', '/admin/clock-in', { key: w.key, body: { badge: 2 } });
  await until(async () => (await w.server.sql`select 1 from chat_panels where guild_id = ${GUILD}`).length === 0, 'the panel forgotten', 4_000);
  await w.discord.slash(GUILD, anna.userId, 'panel', { channelId: CHANNEL, options: { sprache: 'en' } });
  const fresh = (await panelMessage(w))!;
  t.not(fresh.id, old.id);
  t.match(panelText(fresh), /Time clock · Guild 571000000000000001[\s\S]*Ben Crew[\s\S]*On duty: 2/, 'English on request, with who is on duty now');
  t.same(fresh.components[0].components.map((b: { label: string }) => b.label), ['Clock in', 'Clock out', 'Login']);
});

t.test('/panel again moves the panel: the old message is deleted, edits go to the new one', async (t) => {
  const old = (await panelMessage(w))!;
  await w.discord.slash(GUILD, anna.userId, 'panel', { channelId: CHANNEL });
  const fresh = (await panelMessage(w))!;
  t.not(fresh.id, old.id);
  await until(() => w.discord.messages.get(old.id)!.deleted, 'the old panel deleted', 2_000);
  await w.api('POST', '/admin/clock-out', { key: w.key, body: { badge: 2 } });
  await until(() => !panelText(w.discord.messages.get(fresh.id)!).includes('Ben Crew'), 'the new panel edited', 2_000);
  t.pass();
});

t.test('a Discord server that adds the bot gets its instance, named like the server', async (t) => {
  w.discord.addGuild({ id: '571000000000000002', name: 'Feuerwache Süd' });
  await until(async () => (await w.server.sql`select 1 from guilds where id = '571000000000000002'`).length === 1, 'the new instance', 5_000);
  const [guild] = await w.server.sql`select name from guilds where id = '571000000000000002'`;
  t.equal(guild.name, 'Feuerwache Süd');
});
