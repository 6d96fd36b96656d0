import t from 'tap';
import { call } from '../helpers/server.ts';
import { botWorld, CHANNEL, crew, discordAdmin, GUILD, stranger } from '../helpers/discord-bot.ts';

const w = await botWorld(t);
const [anna, ben] = crew;
const keyPattern = /stmp_[A-Za-z0-9_]+/;

t.test('the commands are registered with German names and English localizations', async (t) => {
  const commands = w.discord.commands();
  t.same(commands.map((c) => c.name).sort(), ['apikey', 'login', 'panel', 'statistik']);
  const apikey = commands.find((c) => c.name === 'apikey');
  t.same(apikey.options.map((o: { name: string }) => o.name), ['erstellen', 'liste', 'löschen']);
  t.same(apikey.options.map((o: { name_localizations: Record<string, string> }) => o.name_localizations['en-US']), ['create', 'list', 'delete']);
  t.match(apikey.description, /API-Schlüssel/);
  t.match(apikey.description_localizations['en-US'], /API keys/);
});

t.test('/apikey erstellen: a modal asks for the name, the key is shown once, ephemeral, and works', async (t) => {
  const modal = await w.discord.slash(GUILD, discordAdmin.id, 'apikey', { subcommand: 'erstellen' });
  t.equal(modal.type, 9, 'a modal');
  t.equal(modal.data.custom_id, 'dt:apikey:create');
  const answer = await w.discord.modalSubmit(GUILD, discordAdmin.id, 'dt:apikey:create', { name: 'FiveM Leitstelle' });
  t.equal(answer.data.flags & 64, 64, 'ephemeral');
  t.match(answer.data.content, /Schlüssel „FiveM Leitstelle“ erstellt[\s\S]*nur jetzt/);
  const key = answer.data.content.match(keyPattern)![0];
  t.notOk(key.startsWith('stmp_sc_'), 'an unscoped key');
  const res = await w.api('GET', '/admin/apikeys', { key });
  t.equal(res.status, 200, 'the key works at once');
  t.ok(res.body.keys.some((k: { name: string }) => k.name === 'FiveM Leitstelle'));

  const bad = await w.discord.modalSubmit(GUILD, discordAdmin.id, 'dt:apikey:create', { name: '   ' });
  t.match(bad.data.content, /Name geht nicht/);
});

t.test('/apikey liste shows name, last 4, created and last used, only to the admin', async (t) => {
  const answer = await w.discord.slash(GUILD, anna.userId, 'apikey', { subcommand: 'liste' });
  t.equal(answer.data.flags & 64, 64);
  const text = answer.data.embeds[0].description as string;
  t.match(answer.data.embeds[0].title, /API-Schlüssel \(2\)/);
  t.match(text, /\*\*bot-test\*\* …\w{4} · erstellt <t:\d+:f> · nie benutzt/);
  t.match(text, /\*\*FiveM Leitstelle\*\* …\w{4} · erstellt <t:\d+:f> · zuletzt benutzt <t:\d+:R>/);
  t.notMatch(text, keyPattern, 'never the key itself');
});

t.test('/apikey löschen: autocomplete by name, a confirmation, then the key stops working', async (t) => {
  const created = await w.discord.modalSubmit(GUILD, anna.userId, 'dt:apikey:create', { name: 'Alt-Skript' });
  const key = created.data.content.match(keyPattern)![0];
  const suggestions = await w.discord.autocomplete(GUILD, anna.userId, 'apikey', { subcommand: 'löschen', focused: { name: 'schluessel', value: 'alt' } });
  t.equal(suggestions.type, 8);
  t.equal(suggestions.data.choices.length, 1);
  t.match(suggestions.data.choices[0].name, /^Alt-Skript · …\w{4}$/);
  const id = suggestions.data.choices[0].value;

  const confirm = await w.discord.slash(GUILD, anna.userId, 'apikey', { subcommand: 'löschen', options: { schluessel: id } });
  t.match(confirm.data.content, /wirklich löschen/);
  const no = confirm.data.components[0].components[1];
  t.equal(no.custom_id, 'dt:apikey:cancel');
  t.equal((await w.api('GET', '/admin/apikeys', { key })).status, 200, 'nothing deleted before the confirmation');

  const cancelled = await w.discord.button(GUILD, anna.userId, confirm.messageId!, no.custom_id);
  t.equal(cancelled.type, 7, 'the confirmation message is updated');
  t.match(cancelled.data.content, /Abgebrochen/);
  t.same(cancelled.data.components, [], 'its buttons are gone');
  t.equal((await w.api('GET', '/admin/apikeys', { key })).status, 200, 'cancelled: the key still works');

  // Two admins ask at the same time; the second confirmation finds the key gone.
  const first = await w.discord.slash(GUILD, anna.userId, 'apikey', { subcommand: 'löschen', options: { schluessel: id } });
  const second = await w.discord.slash(GUILD, discordAdmin.id, 'apikey', { subcommand: 'löschen', options: { schluessel: 'Alt-Skript' } });
  const done = await w.discord.button(GUILD, anna.userId, first.messageId!, first.data.components[0].components[0].custom_id);
  t.match(done.data.content, /„Alt-Skript“ ist gelöscht/);
  t.equal((await w.api('GET', '/admin/apikeys', { key })).status, 401, 'the key is revoked at once');
  const late = await w.discord.button(GUILD, discordAdmin.id, second.messageId!, second.data.components[0].components[0].custom_id);
  t.match(late.data.content, /schon gelöscht/);

  const byName = await w.discord.slash(GUILD, anna.userId, 'apikey', { subcommand: 'löschen', options: { schluessel: 'gibt es nicht' } });
  t.match(byName.data.content, /Kein Schlüssel „gibt es nicht“/);
});

t.test('members without the right get a clear refusal everywhere and see nothing', async (t) => {
  for (const sub of ['erstellen', 'liste']) {
    const answer = await w.discord.slash(GUILD, ben.userId, 'apikey', { subcommand: sub });
    t.equal(answer.type, 4, `${sub}: a message, not a modal`);
    t.match(answer.data.content, /nur Admins/);
    t.notOk(answer.data.embeds?.length, 'no key list');
  }
  const ac = await w.discord.autocomplete(GUILD, ben.userId, 'apikey', { subcommand: 'löschen', focused: { name: 'schluessel', value: '' } });
  t.same(ac.data.choices, [], 'no suggestions');
  const forged = await w.discord.modalSubmit(GUILD, ben.userId, 'dt:apikey:create', { name: 'sneaky' });
  t.match(forged.data.content, /nur Admins/);
  const { keys } = (await w.api('GET', '/admin/apikeys', { key: w.key })).body;
  t.notOk(keys.some((k: { name: string }) => k.name === 'sneaky'), 'no key was made');
  t.match((await w.discord.slash(GUILD, stranger.id, 'apikey', { subcommand: 'liste', locale: 'en-US' })).data.content, /Only admins/);
});

t.test('a rank with settings.manage may list keys without Discord\'s "Manage Server", but not create a full-access one', async (t) => {
  await w.server.sql`insert into ranks (guild_id, id, name, position, capabilities) values (${GUILD}, 'lead', 'Wachleitung', 5, '{settings.manage}')`;
  await w.server.sql`update people set rank_id = 'lead' where guild_id = ${GUILD} and user_id = ${ben.userId}`;
  const answer = await w.discord.slash(GUILD, ben.userId, 'apikey', { subcommand: 'liste' });
  t.ok(answer.data.embeds?.length, 'the list');
  // Issue 27: an unscoped key acts as the guild's admin, so settings.manage is not enough to make one.
  const create = await w.discord.slash(GUILD, ben.userId, 'apikey', { subcommand: 'erstellen' });
  t.equal(create.type, 4, 'a message, not the modal');
  t.match(create.data.content, /Vollzugriff dürfen nur Admins/);
  t.equal(create.data.flags & 64, 64, 'ephemeral');
  const forged = await w.discord.modalSubmit(GUILD, ben.userId, 'dt:apikey:create', { name: 'selbst ernannt' });
  t.match(forged.data.content, /Vollzugriff dürfen nur Admins/, 'a submitted modal is checked again');
  t.notMatch(forged.data.content, keyPattern, 'no key in the answer');
  const { keys } = (await w.api('GET', '/admin/apikeys', { key: w.key })).body;
  t.notOk(keys.some((k: { name: string }) => k.name === 'selbst ernannt'), 'no key was made');
  await w.server.sql`update people set rank_id = 'crew' where guild_id = ${GUILD} and user_id = ${ben.userId}`;
});

t.test('/login gives the member a working one-time link to the board', async (t) => {
  const answer = await w.discord.slash(GUILD, ben.userId, 'login');
  t.equal(answer.data.flags & 64, 64);
  const link = answer.data.content.match(/http:\/\/\S+\/auth\/login\/\S+/)![0];
  const res = await call(w.server.url, 'GET', new URL(link).pathname);
  t.equal(res.status, 302);
  t.equal(res.headers.get('location'), `/dispatch?guild=${GUILD}`);
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  const me = await call(w.server.url, 'GET', '/auth/session', { session: { cookie } });
  t.equal(me.body.userId, ben.userId);
  t.equal((await call(w.server.url, 'GET', new URL(link).pathname)).status, 410, 'used once');
});

t.test('/login for a Discord admin without personnel entry adds them as admin; a stranger is refused', async (t) => {
  const answer = await w.discord.slash(GUILD, discordAdmin.id, 'login');
  t.match(answer.data.content, /als Admin eingetragen[\s\S]*Einmal-Link/);
  const [person] = await w.server.sql`select nickname, is_admin, badge from people where guild_id = ${GUILD} and user_id = ${discordAdmin.id}`;
  t.same({ ...person }, { nickname: 'Olga Owner', is_admin: true, badge: null });
  const refused = await w.discord.slash(GUILD, stranger.id, 'login');
  t.match(refused.data.content, /keinen Personaleintrag/);
  t.notMatch(refused.data.content, /http/);
});

t.test('the panel\'s Login button answers like /login', async (t) => {
  await w.discord.slash(GUILD, anna.userId, 'panel', { channelId: CHANNEL });
  const [panel] = await w.server.sql`select message_id from chat_panels where guild_id = ${GUILD}`;
  const answer = await w.discord.button(GUILD, ben.userId, panel.message_id, 'dt:login', { locale: 'en-GB' });
  t.match(answer.data.content, /Your one-time link to the board[\s\S]*\/auth\/login\//);
});
