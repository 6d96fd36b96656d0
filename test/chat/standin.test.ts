/**
 * The Discord stand-in against a real discord.js Client: what the bot tests rely on (gateway,
 * REST, interactions, 429s, outages, emojis, CDN, OAuth2) behaves as discord.js expects of Discord.
 */
import { createHash, randomBytes } from 'node:crypto';
import t from 'tap';
import {
  ActionRowBuilder, ButtonBuilder, ButtonStyle, Client, DiscordAPIError, GatewayIntentBits, LabelBuilder, MessageFlags,
  ModalBuilder, PermissionFlagsBits, TextInputBuilder, TextInputStyle, type Interaction, type TextChannel,
} from 'discord.js';
import { WebSocket } from 'ws';
import { startDiscordStandIn, type DiscordStandIn } from '../helpers/discord-standin.ts';

const GUILD = '571000000000000001';
const CHANNEL = '571000000000000101';
const admin = { id: '572000000000000001', username: 'anna', globalName: 'Anna Admin', manageGuild: true };
const crew = { id: '572000000000000002', username: 'ben', globalName: 'Ben Crew' };
const siren = { id: '1300000000000000001', name: 'blaulicht' };
const spinner = { id: '1300000000000000002', name: 'drehlicht', animated: true };

const commands = [
  {
    name: 'apikey', type: 1, contexts: [0], description: 'API-Schlüssel verwalten', description_localizations: { 'en-US': 'Manage API keys' },
    options: [
      { type: 1, name: 'erstellen', description: 'Neuer Schlüssel' },
      { type: 1, name: 'löschen', description: 'Schlüssel löschen', options: [{ type: 3, name: 'schluessel', description: 'Name', required: true, autocomplete: true }] },
    ],
  },
  {
    name: 'panel', type: 1, description: 'Panel posten',
    options: [
      { type: 3, name: 'sprache', description: 'Sprache', choices: [{ name: 'Deutsch', value: 'de' }, { name: 'English', value: 'en' }] },
      { type: 4, name: 'zeilen', description: 'Zeilen', min_value: 1, max_value: 25 },
      { type: 5, name: 'leise', description: 'Ohne Ping' },
    ],
  },
  { name: 'geheim', type: 1, description: 'Nur für Admins', default_member_permissions: String(PermissionFlagsBits.ManageGuild) },
];

async function connectedClient(s: DiscordStandIn, tt: { teardown(fn: () => unknown): void } = t) {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildExpressions],
    rest: { api: s.apiUrl, cdn: s.cdnUrl, retries: 1 },
  });
  tt.teardown(() => client.destroy());
  const ready = new Promise<void>((resolve) => client.once('clientReady', () => resolve()));
  await client.login(s.botToken);
  await ready;
  return client;
}

const discord = await startDiscordStandIn(t);
discord.addGuild({ id: GUILD, name: 'Wache Nord', channels: [{ id: CHANNEL, name: 'stempeluhr' }], emojis: [siren] });
discord.addMember(GUILD, admin);
discord.addMember(GUILD, crew);
const client = await connectedClient(discord);
const channel = client.channels.cache.get(CHANNEL) as TextChannel;

/** What the bot under test does with interactions; handler errors fail the test that caused them. */
const handlerErrors: unknown[] = [];
const seen: Interaction[] = [];
const withResponse: Array<{ id: string | null; ephemeral: boolean | null }> = [];
client.on('interactionCreate', (i) => {
  seen.push(i);
  handle(i).catch((err) => handlerErrors.push(err));
});
async function handle(i: Interaction) {
  if (i.isAutocomplete()) {
    const typed = i.options.getFocused();
    await i.respond(['Leitstelle', 'Tablet', 'Lenkrad'].filter((n) => n.toLowerCase().startsWith(typed.toLowerCase())).map((n) => ({ name: n, value: n })));
  } else if (i.isChatInputCommand() && i.commandName === 'panel') {
    const language = i.options.getString('sprache') ?? 'de';
    const rows = i.options.getInteger('zeilen');
    const quiet = i.options.getBoolean('leise');
    await i.reply({ content: `panel ${language} ${rows} ${quiet} ${i.locale} ${i.guildLocale} admin=${i.memberPermissions?.has(PermissionFlagsBits.ManageGuild)}`, flags: MessageFlags.Ephemeral });
  } else if (i.isChatInputCommand() && i.commandName === 'geheim') {
    const response = await i.reply({ content: 'nur für dich', flags: MessageFlags.Ephemeral, withResponse: true });
    withResponse.push({ id: response.resource?.message?.id ?? null, ephemeral: response.interaction.responseMessageEphemeral });
  } else if (i.isChatInputCommand() && i.commandName === 'apikey' && i.options.getSubcommand() === 'erstellen') {
    const labelled = i.locale === 'en-US';
    const modal = new ModalBuilder().setCustomId(labelled ? 'key:create:label' : 'key:create').setTitle('Neuer Schlüssel');
    if (labelled) modal.addLabelComponents(new LabelBuilder().setLabel('Name').setTextInputComponent(new TextInputBuilder().setCustomId('name').setStyle(TextInputStyle.Short).setMaxLength(40)));
    else modal.addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(new TextInputBuilder().setCustomId('name').setLabel('Name').setStyle(TextInputStyle.Short).setMaxLength(40)));
    await i.showModal(modal);
  } else if (i.isChatInputCommand() && i.commandName === 'apikey') {
    await i.deferReply({ flags: MessageFlags.Ephemeral });
    await i.editReply({ content: `gelöscht: ${i.options.getString('schluessel')}` });
    await i.followUp({ content: 'Noch etwas?', flags: MessageFlags.Ephemeral });
  } else if (i.isModalSubmit()) {
    await i.reply({ content: `Schlüssel ${i.fields.getTextInputValue('name')} erstellt`, flags: MessageFlags.Ephemeral });
  } else if (i.isButton() && i.customId === 'clock:in') {
    await i.update({ content: `${i.user.username} ist im Dienst` });
  } else if (i.isButton() && i.customId === 'clock:later') {
    await i.deferUpdate();
    await i.editReply({ content: 'später bearbeitet' });
  } else if (i.isButton()) {
    await i.reply({ content: 'unbekannt', flags: MessageFlags.Ephemeral });
  }
}

t.test('the client becomes ready with the guild, its channel and emojis cached', async (t) => {
  const guild = client.guilds.cache.get(GUILD);
  t.ok(guild, 'guild cached');
  t.equal(guild!.name, 'Wache Nord');
  t.equal(guild!.preferredLocale, 'de');
  t.equal(guild!.channels.cache.get(CHANNEL)?.name, 'stempeluhr');
  t.equal(guild!.emojis.cache.get(siren.id)?.name, 'blaulicht');
  t.equal(guild!.members.me?.id, discord.botUserId, 'the bot\'s own member is known');
  t.equal(client.user!.id, discord.botUserId);
  t.equal(client.application!.id, discord.applicationId);
  t.equal(discord.identifies, 1);
  t.equal(discord.openSockets(), 1);
  t.equal(discord.lastIdentify?.intents, GatewayIntentBits.Guilds | GatewayIntentBits.GuildExpressions);
  await discord.waitForReady(100);
  t.match(discord.botToken, new RegExp(`^${Buffer.from(discord.applicationId).toString('base64').replace(/=+$/, '')}\\.`), 'the token starts with the application id in base64');
});

t.test('messages: sent with an embed and buttons, edited, read, deleted as Discord does', async (t) => {
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId('clock:in').setLabel('Einstempeln').setStyle(ButtonStyle.Success),
    new ButtonBuilder().setCustomId('clock:later').setLabel('Später').setStyle(ButtonStyle.Secondary),
    new ButtonBuilder().setURL('https://example.org/board').setLabel('Board').setStyle(ButtonStyle.Link),
  );
  const sent = await channel.send({ content: 'Stempeluhr', embeds: [{ title: 'Im Dienst', description: 'Niemand', fields: [{ name: 'Zahl', value: '0' }] }], components: [row] });
  t.match(sent.id, /^\d{17,19}$/);
  const stored = discord.messages.get(sent.id)!;
  t.equal(stored.channelId, CHANNEL);
  t.equal(stored.embeds[0].title, 'Im Dienst');
  t.equal(stored.components[0].components[0].custom_id, 'clock:in');
  t.equal(stored.edits, 0);
  t.equal(sent.author.id, discord.botUserId);

  const edited = await sent.edit({ embeds: [{ title: 'Im Dienst', description: 'Anna' }] });
  t.equal(stored.edits, 1);
  t.equal(stored.content, 'Stempeluhr', 'fields left out of an edit stay');
  t.equal(stored.embeds[0].description, 'Anna');
  t.ok(edited.editedTimestamp);
  const fetched = await channel.messages.fetch({ message: sent.id, force: true });
  t.equal(fetched.embeds[0].description, 'Anna');

  const second = await channel.send('zweite');
  t.ok(BigInt(second.id) > BigInt(sent.id), 'ids increase');
  t.same(discord.channelMessages(CHANNEL).map((m) => m.id), [sent.id, second.id]);
  const paths = discord.requests.filter((r) => r.path.startsWith(`/channels/${CHANNEL}/messages`)).map((r) => `${r.method} ${r.path.replace(sent.id, ':id').replace(second.id, ':id2')} ${r.status}`);
  t.same(paths.slice(0, 4), [`POST /channels/${CHANNEL}/messages 200`, `PATCH /channels/${CHANNEL}/messages/:id 200`, `GET /channels/${CHANNEL}/messages/:id 200`, `POST /channels/${CHANNEL}/messages 200`]);

  discord.deleteMessage(second.id);
  const err = await second.edit('x').catch((e) => e);
  t.ok(err instanceof DiscordAPIError);
  t.equal(err.status, 404);
  t.equal(err.code, 10008, 'Unknown Message');
  t.same(discord.channelMessages(CHANNEL).map((m) => m.id), [sent.id]);
});

t.test('messages Discord would refuse are refused with its error codes', async (t) => {
  const tooMany = Array.from({ length: 26 }, (_, i) => ({ name: `f${i}`, value: 'v' }));
  const fields = await channel.send({ embeds: [{ title: 't', fields: tooMany }] }).catch((e) => e);
  t.equal(fields.status, 400);
  t.equal(fields.code, 50035);
  t.match(fields.rawError.errors, { embeds: { 0: { fields: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } } });
  const long = await channel.send('x'.repeat(2001)).catch((e) => e);
  t.equal(long.code, 50035);
  const empty: any = await client.rest.post(`/channels/${CHANNEL}/messages`, { body: { content: '' } }).catch((e) => e);
  t.equal(empty.code, 50006, 'empty message');
  const dup = await channel.send({ content: 'x', components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: 'a', label: 'A' }, { type: 2, style: 1, custom_id: 'a', label: 'B' }] }] }).catch((e) => e);
  t.equal(dup.code, 50035, 'duplicate custom ids');
  const unknownChannel: any = await client.rest.post('/channels/999999999999999999/messages', { body: { content: 'x' } }).catch((e) => e);
  t.equal(unknownChannel.code, 10003);
});

t.test('REST checks the token and answers unknown routes like Discord', async (t) => {
  const wrong = await fetch(`${discord.apiUrl}/v10/users/@me`, { headers: { authorization: 'Bot nope' } });
  t.equal(wrong.status, 401);
  t.same(await wrong.json(), { message: '401: Unauthorized', code: 0 });
  const none = await fetch(`${discord.apiUrl}/v10/guilds/${GUILD}`);
  t.equal(none.status, 401);
  const unknownRoute = await fetch(`${discord.apiUrl}/v10/nothing/here`, { headers: { authorization: `Bot ${discord.botToken}` } });
  t.equal(unknownRoute.status, 404);
  t.same(await unknownRoute.json(), { message: '404: Not Found', code: 0 });
  const me = await fetch(`${discord.apiUrl}/v10/users/@me`, { headers: { authorization: `Bot ${discord.botToken}` } });
  t.equal(me.status, 200);
  t.equal(me.headers.get('x-ratelimit-remaining'), '999');
  t.ok(me.headers.get('x-ratelimit-bucket'));
  t.match(await me.json(), { id: discord.botUserId, bot: true });
  const member = await client.guilds.cache.get(GUILD)!.members.fetch(admin.id);
  t.equal(member.user.globalName, 'Anna Admin');
  t.ok(member.permissions.has(PermissionFlagsBits.ManageGuild), 'the admin\'s role carries Manage Server');
  t.notOk((await client.guilds.cache.get(GUILD)!.members.fetch(crew.id)).permissions.has(PermissionFlagsBits.ManageGuild));
});

t.test('application commands: registered with Discord\'s checks, ids kept on overwrite', async (t) => {
  const badLocale = await client.application!.commands.set([{ ...commands[1], description_localizations: { en: 'Post the panel' } } as never]).catch((e) => e);
  t.equal(badLocale.code, 50035, '"en" is not a Discord locale');
  const upper = await client.application!.commands.set([{ name: 'Panel', description: 'x' }]).catch((e) => e);
  t.equal(upper.code, 50035, 'names are lower case');
  const set = await client.application!.commands.set(commands as never);
  t.equal(set.size, 3);
  const ids = discord.commands().map((c) => c.id);
  t.same(discord.commands().map((c) => c.name), ['apikey', 'panel', 'geheim']);
  await client.application!.commands.set(commands as never);
  t.same(discord.commands().map((c) => c.id), ids, 'the same ids after a second overwrite');
  t.same(discord.commands(GUILD), []);
});

t.test('a slash command reaches interactionCreate; an ephemeral reply resolves slash()', async (t) => {
  const answer = await discord.slash(GUILD, admin.id, 'panel', { channelId: CHANNEL, options: { sprache: 'en', zeilen: 5, leise: true } });
  t.equal(answer.type, 4);
  t.equal(answer.data.flags, MessageFlags.Ephemeral);
  t.equal(answer.data.content, 'panel en 5 true de de admin=true');
  t.ok(answer.messageId);
  t.equal(discord.messages.get(answer.messageId!)?.ephemeral, true);
  t.equal(discord.channelMessages(CHANNEL).some((m) => m.id === answer.messageId), false, 'ephemeral answers are not channel messages');
  const crewAnswer = await discord.slash(GUILD, crew.id, 'panel', { locale: 'en-US' });
  t.equal(crewAnswer.data.content, 'panel de null null en-US de admin=false');
  const interaction = seen.at(-1)!;
  t.equal(interaction.guildId, GUILD);
  t.equal(interaction.user.id, crew.id);

  await t.rejects(discord.slash(GUILD, admin.id, 'panel', { options: { sprache: 'fr' } }), /only offers "de", "en"/, 'choices are enforced as Discord\'s client does');
  await t.rejects(discord.slash(GUILD, admin.id, 'panel', { options: { zeilen: 30 } }), /at most 25/);
  await t.rejects(discord.slash(GUILD, admin.id, 'panel', { options: { farbe: 'rot' } }), /has no option farbe/);
  await t.rejects(discord.slash(GUILD, admin.id, 'apikey', { subcommand: 'löschen' }), /required option schluessel/);
  await t.rejects(discord.slash(GUILD, crew.id, 'geheim'), /default_member_permissions/, 'a member without Manage Server cannot run it');
  const secret = await discord.slash(GUILD, admin.id, 'geheim');
  for (let i = 0; i < 100 && !withResponse.length; i++) await new Promise((r) => setTimeout(r, 10)); // the bot reads the 200 after slash() resolved
  t.same(withResponse, [{ id: secret.messageId, ephemeral: true }], 'withResponse: the callback answers 200 with the message');
  await t.rejects(discord.slash(GUILD, '572000000000000099', 'panel'), /not a member/);
});

t.test('deferReply, editReply and followUp reach later/next() in order', async (t) => {
  const answer = await discord.slash(GUILD, admin.id, 'apikey', { subcommand: 'löschen', options: { schluessel: 'Tablet' } });
  t.equal(answer.type, 5);
  t.equal(answer.data.flags, MessageFlags.Ephemeral);
  const edit = await answer.next();
  t.equal(edit.method, 'PATCH');
  t.match(edit.path, /\/messages\/@original$/);
  t.equal(edit.body.content, 'gelöscht: Tablet');
  const follow = await answer.next();
  t.equal(follow.method, 'POST');
  t.equal(follow.body.content, 'Noch etwas?');
  t.equal(answer.later.length, 2);
  t.equal(discord.messages.get(answer.messageId!)?.content, 'gelöscht: Tablet', 'the deferred reply holds the edit');
  await t.rejects(answer.next(100), /no follow-up/);
});

t.test('showModal and modalSubmit round-trip, in action rows and in label components', async (t) => {
  const shown = await discord.slash(GUILD, admin.id, 'apikey', { subcommand: 'erstellen' });
  t.equal(shown.type, 9);
  t.equal(shown.data.custom_id, 'key:create');
  const submitted = await discord.modalSubmit(GUILD, admin.id, 'key:create', { name: 'Leitstelle' });
  t.equal(submitted.type, 4);
  t.equal(submitted.data.content, 'Schlüssel Leitstelle erstellt');

  const labelled = await discord.slash(GUILD, admin.id, 'apikey', { subcommand: 'erstellen', locale: 'en-US' });
  t.equal(labelled.data.components[0].type, 18);
  const viaLabel = await discord.modalSubmit(GUILD, admin.id, 'key:create:label', { name: 'Tablet' });
  t.equal(viaLabel.data.content, 'Schlüssel Tablet erstellt');

  await t.rejects(discord.modalSubmit(GUILD, admin.id, 'key:create', { name: 'x'.repeat(41) }), /at most 40/);
  await t.rejects(discord.modalSubmit(GUILD, admin.id, 'key:create', {}), /required field name/);
  await t.rejects(discord.modalSubmit(GUILD, admin.id, 'never:shown', { name: 'x' }), /never showed a modal/);
});

t.test('buttons: update (type 7) and deferUpdate + editReply edit the clicked message', async (t) => {
  const panel = discord.channelMessages(CHANNEL)[0];
  const before = panel.edits;
  const answer = await discord.button(GUILD, crew.id, panel.id, 'clock:in');
  t.equal(answer.type, 7);
  t.equal(panel.content, 'ben ist im Dienst');
  t.equal(panel.edits, before + 1);
  const deferred = await discord.button(GUILD, crew.id, panel.id, 'clock:later');
  t.equal(deferred.type, 6);
  t.equal(deferred.messageId, panel.id);
  const edit = await deferred.next();
  t.equal(edit.body.content, 'später bearbeitet');
  t.equal(panel.content, 'später bearbeitet');
  t.equal(panel.edits, before + 2);
  await t.rejects(discord.button(GUILD, crew.id, panel.id, 'clock:nothing'), /no component with custom_id clock:nothing/);
});

t.test('autocomplete marks the focused option and returns the choices', async (t) => {
  const answer = await discord.autocomplete(GUILD, admin.id, 'apikey', { subcommand: 'löschen', focused: { name: 'schluessel', value: 'le' } });
  t.equal(answer.type, 8);
  t.same(answer.data.choices, [{ name: 'Leitstelle', value: 'Leitstelle' }, { name: 'Lenkrad', value: 'Lenkrad' }]);
  const interaction = seen.at(-1)!;
  t.ok(interaction.isAutocomplete() && interaction.options.getFocused(true).name === 'schluessel');
  await t.rejects(discord.autocomplete(GUILD, admin.id, 'panel', { focused: { name: 'sprache', value: 'd' } }), /not declared with autocomplete/);
});

t.test('an interaction acknowledged twice is refused (40060)', async (t) => {
  const answer = await discord.slash(GUILD, admin.id, 'panel');
  const again: any = await client.rest.post(`/interactions/${answer.interactionId}/x/callback`, { body: { type: 4, data: { content: 'x' } }, auth: false }).catch((e) => e);
  t.equal(again.code, 10062, 'a wrong token is an unknown interaction');
  const pending = seen.at(-1)!;
  const twice: any = await client.rest.post(`/interactions/${pending.id}/${pending.token}/callback`, { body: { type: 4, data: { content: 'x' } }, auth: false }).catch((e) => e);
  t.equal(twice.code, 40060);
});

t.test('rateLimit: discord.js waits retry_after and then succeeds', async (t) => {
  const limited: number[] = [];
  const onLimit = (info: { retryAfter: number }) => limited.push(info.retryAfter);
  client.rest.on('rateLimited', onLimit);
  discord.rateLimit({ count: 1, retryAfter: 0.5, match: /^POST \/channels\/\d+\/messages$/ });
  const start = Date.now();
  const sent = await channel.send('nach dem Limit');
  const took = Date.now() - start;
  client.rest.off('rateLimited', onLimit);
  t.ok(took >= 500, `waited ${took} ms`);
  t.ok(took < 3000, `and not much longer (${took} ms)`);
  t.equal(limited.length, 1, 'discord.js saw one 429');
  t.ok(limited[0] >= 500, `and its retry_after (${limited[0]} ms)`);
  const posts = discord.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${CHANNEL}/messages`).slice(-2);
  t.same(posts.map((r) => r.status), [429, 200]);
  t.ok(discord.messages.get(sent.id));

  const raw = await (async () => {
    discord.rateLimit({ count: 1, retryAfter: 2, global: true });
    return fetch(`${discord.apiUrl}/v10/users/@me`, { headers: { authorization: `Bot ${discord.botToken}` } });
  })();
  t.equal(raw.status, 429);
  t.equal(raw.headers.get('retry-after'), '2');
  t.equal(raw.headers.get('x-ratelimit-scope'), 'global');
  t.equal(raw.headers.get('x-ratelimit-global'), 'true');
  t.same(await raw.json(), { message: 'You are being rate limited.', retry_after: 2, global: true });
});

t.test('setEmojis reaches the client as emoji events, also across a gateway cut (resume replays)', async (t) => {
  const created = new Promise<string>((resolve) => client.once('emojiCreate', (e) => resolve(e.name!)));
  discord.setEmojis(GUILD, [siren, spinner]);
  t.equal(await created, 'drehlicht');
  t.ok(client.guilds.cache.get(GUILD)!.emojis.cache.get(spinner.id)?.animated);

  const resumed = new Promise<void>((resolve) => client.once('shardResume', () => resolve()));
  const deleted = new Promise<string>((resolve) => client.once('emojiDelete', (e) => resolve(e.id)));
  discord.dropGateway();
  t.equal(discord.openSockets(), 0);
  discord.setEmojis(GUILD, [spinner]); // while the client is away: kept for the resume
  await resumed;
  t.equal(await deleted, siren.id, 'the missed GUILD_EMOJIS_UPDATE is replayed');
  t.equal(discord.resumes, 1);
  t.equal(discord.identifies, 1, 'resumed, not identified anew');
  await discord.waitForReady(1000);
});

t.test('the CDN serves emoji images with their content type', async (t) => {
  const png = await fetch(client.guilds.cache.get(GUILD)!.emojis.cache.get(spinner.id)!.imageURL({ extension: 'png', size: 64 }).replace('.png', '.gif'));
  t.equal(png.status, 200);
  t.equal(png.headers.get('content-type'), 'image/gif');
  t.equal(Buffer.from(await png.arrayBuffer()).subarray(0, 6).toString(), 'GIF89a');
  discord.setEmojis(GUILD, [spinner, siren], { dispatch: false });
  const still = await fetch(`${discord.cdnUrl}/emojis/${siren.id}.webp?size=48&quality=lossless`);
  t.equal(still.headers.get('content-type'), 'image/png');
  const missing = await fetch(`${discord.cdnUrl}/emojis/1399999999999999999.png`);
  t.equal(missing.status, 404);
  const own = Buffer.from('GIF89a-custom');
  discord.setEmojis(GUILD, [{ ...siren, image: own }], { dispatch: false });
  t.same(Buffer.from(await (await fetch(`${discord.cdnUrl}/emojis/${siren.id}.png`)).arrayBuffer()), own, 'a given image is served as is');
});

t.test('down() then up(): REST fails meanwhile, the client reconnects and REST works again', async (t) => {
  const reconnecting = new Promise<void>((resolve) => client.once('shardReconnecting', () => resolve()));
  discord.down();
  await reconnecting;
  const failed = await channel.send('während des Ausfalls').catch((e) => e);
  t.equal(failed.status, 503, 'REST answers 503 while Discord is down');
  t.equal((await fetch(`${discord.cdnUrl}/emojis/${siren.id}.png`)).status, 503, 'so does the CDN');
  await new Promise((r) => setTimeout(r, 700)); // a reconnect attempt is refused meanwhile
  t.equal(discord.openSockets(), 0);
  const back = new Promise<void>((resolve) => client.once('shardResume', () => resolve()));
  discord.up();
  await back;
  await discord.waitForReady(2000);
  const sent = await channel.send('wieder da');
  t.ok(discord.messages.get(sent.id));
  t.equal(discord.identifies, 1, 'resumed');
});

t.test('down() with ended sessions: the client identifies anew and is ready again', async (t) => {
  const ready = new Promise<void>((resolve) => client.once('shardReady', () => resolve()));
  discord.down({ invalidateSessions: true });
  discord.up();
  await ready;
  t.equal(discord.identifies, 2);
  t.ok(client.guilds.cache.get(GUILD));
});

t.test('the gateway closes with 4004 for a wrong token and 4014 for a privileged intent not enabled', async (t) => {
  const closeCode = (d: object) => new Promise<number>((resolve) => {
    const ws = new WebSocket(`${discord.origin.replace('http', 'ws')}/gateway?v=10&encoding=json`);
    ws.on('message', (raw) => {
      const p = JSON.parse(String(raw));
      if (p.op === 10) ws.send(JSON.stringify({ op: 2, d }));
    });
    ws.on('close', (code) => resolve(code));
  });
  t.equal(await closeCode({ token: 'wrong', intents: 1, properties: {} }), 4004);
  t.equal(await closeCode({ token: discord.botToken, intents: GatewayIntentBits.MessageContent, properties: {} }), 4014);
  const bad = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: discord.apiUrl, cdn: discord.cdnUrl } });
  await t.rejects(bad.login('MTIz.bad.token'), /invalid token/i, 'discord.js refuses the login (GET /gateway/bot is 401)');
  await bad.destroy();
});

t.test('a callback after Discord\'s 3 s window is refused and the test is told', async (t) => {
  const slow = await startDiscordStandIn(t, { callbackWindowMs: 150 });
  slow.addGuild({ id: GUILD, name: 'Langsam' });
  slow.addMember(GUILD, admin);
  const bot = await connectedClient(slow, t);
  await bot.application!.commands.set([commands[1]] as never);
  let refused: unknown = null;
  bot.on('interactionCreate', (i) => {
    if (!i.isChatInputCommand()) return;
    setTimeout(() => i.reply('zu spät').catch((e) => (refused = e)), 300);
  });
  await t.rejects(slow.slash(GUILD, admin.id, 'panel'), /after \d+ ms; Discord only accepts a callback within 150 ms/);
  await new Promise((r) => setTimeout(r, 50));
  t.equal((refused as DiscordAPIError | null)?.code, 10062, 'the bot got Unknown interaction');
});

t.test('OAuth2: authorize with PKCE, token exchange with S256 checked, users/@me with the bearer token', async (t) => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirectUri = 'http://127.0.0.1:9/auth/discord/callback';
  const authorize = (extra: Record<string, string> = {}) => fetch(`${discord.origin}/oauth2/authorize?${new URLSearchParams({
    client_id: discord.applicationId, redirect_uri: redirectUri, response_type: 'code', scope: 'identify guilds', state: 'st-1',
    code_challenge: challenge, code_challenge_method: 'S256', ...extra,
  })}`, { redirect: 'manual' });
  t.equal((await authorize()).status, 400, 'nobody signed in yet');
  discord.signInAs(admin.id);
  const res = await authorize();
  t.equal(res.status, 302);
  const back = new URL(res.headers.get('location')!);
  t.equal(`${back.origin}${back.pathname}`, redirectUri);
  t.equal(back.searchParams.get('state'), 'st-1');
  const code = back.searchParams.get('code')!;
  t.ok(code);
  t.equal((await authorize({ code_challenge: '' })).status, 400, 'PKCE is required');
  t.equal((await authorize({ client_id: '1' })).status, 400, 'unknown client');

  const exchange = (form: Record<string, string>, headers: Record<string, string> = {}) => fetch(`${discord.apiUrl}/v10/oauth2/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: discord.applicationId, client_secret: discord.clientSecret, ...form }),
  });
  const wrongVerifier = await exchange({ code_verifier: randomBytes(32).toString('base64url') });
  t.equal(wrongVerifier.status, 400);
  t.match(await wrongVerifier.json(), { error: 'invalid_grant' });
  const wrongSecret = await exchange({ code_verifier: verifier, client_secret: 'nope' });
  t.equal(wrongSecret.status, 401);
  t.match(await wrongSecret.json(), { error: 'invalid_client' });
  t.equal((await exchange({ code_verifier: verifier, redirect_uri: 'http://elsewhere/cb' })).status, 400, 'redirect_uri must match');
  const basic = Buffer.from(`${discord.applicationId}:${discord.clientSecret}`).toString('base64');
  const good = await exchange({ code_verifier: verifier, client_id: '', client_secret: '' }, { authorization: `Basic ${basic}` });
  t.equal(good.status, 200);
  const tokens = await good.json();
  t.match(tokens, { token_type: 'Bearer', scope: 'identify guilds', expires_in: Number, access_token: String, refresh_token: String });
  t.equal((await exchange({ code_verifier: verifier })).status, 400, 'a code is good once');

  const me = await fetch(`${discord.apiUrl}/v10/users/@me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  t.match(await me.json(), { id: admin.id, username: 'anna', global_name: 'Anna Admin', avatar: null, discriminator: '0' });
  const guilds = await (await fetch(`${discord.apiUrl}/v10/users/@me/guilds`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).json();
  t.same(guilds.map((g: { id: string; owner: boolean }) => [g.id, g.owner]), [[GUILD, false]]);
  t.ok(BigInt(guilds[0].permissions) & 0x20n, 'permissions carry Manage Server');
  t.equal((await fetch(`${discord.apiUrl}/v10/users/@me`, { headers: { authorization: 'Bearer nope' } })).status, 401);

  discord.signInAs('573000000000000077'); // a Discord account in none of the stand-in's guilds
  const strangerCode = new URL((await authorize()).headers.get('location')!).searchParams.get('code')!;
  const strangerTokens = await (await fetch(`${discord.apiUrl}/v10/oauth2/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: strangerCode, redirect_uri: redirectUri, code_verifier: verifier, client_id: discord.applicationId, client_secret: discord.clientSecret }),
  })).json();
  t.same(await (await fetch(`${discord.apiUrl}/v10/users/@me/guilds`, { headers: { authorization: `Bearer ${strangerTokens.access_token}` } })).json(), []);

  discord.signInAs(null);
  const denied = new URL((await authorize()).headers.get('location')!);
  t.equal(denied.searchParams.get('error'), 'access_denied');
  t.equal(denied.searchParams.get('state'), 'st-1');
});

t.test('the bot\'s interaction handler never threw', async (t) => {
  t.same(handlerErrors.map(String), []);
});
