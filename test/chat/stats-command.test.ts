/**
 * /statistik against the Discord stand-in with real discord.js, the real server and PostgreSQL:
 * the reply is deferred in public, then edited into the leaderboard embed with the chart as an
 * attached PNG that the embed shows; refusals are ephemeral; failures after deferring say so.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import t, { type Test } from 'tap';
import { formatDuration } from '../../server/domains/stats/charts/index.ts';
import { botWorld, CHANNEL, crew, discordAdmin, GUILD, stranger } from '../helpers/discord-bot.ts';
import type { LaterEntry, StandInMessage } from '../helpers/discord-standin.ts';

const w = await botWorld(t);
const [anna, ben, cem, dora] = crew;
const H = 3_600_000;
const MIN = 60_000;
const ACCENT = 0x1e90ff;

await w.server.sql`update guilds set name = ${'Wache *Nord*'}, branding = ${w.server.sql.json({ color: '#1e90ff' })} where id = ${GUILD}`;
await w.server.sql`update people set nickname = ${'Cem *Star* _x_'} where guild_id = ${GUILD} and user_id = ${cem.userId}`;
async function shift(userId: string, from: Date, to: Date) {
  await w.server.sql`insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status) values (${GUILD}, ${userId}, ${from}, ${to}, 'CLOSED')`;
}
// Long ago (only in "Gesamt"): Anna 5 h + 2 h 30 min, Ben 3 h 15 min, Cem 1 h 45 min.
await shift(anna.userId, new Date('2025-01-06T08:00:00Z'), new Date('2025-01-06T13:00:00Z'));
await shift(anna.userId, new Date('2025-01-07T08:00:00Z'), new Date('2025-01-07T10:30:00Z'));
await shift(ben.userId, new Date('2025-01-06T09:00:00Z'), new Date('2025-01-06T12:15:00Z'));
await shift(cem.userId, new Date('2025-01-08T20:00:00Z'), new Date('2025-01-08T21:45:00Z'));
// Just now: Ben 2 h, ending 10 minutes ago (in this day, week and month unless one began within the last 2 h 10 min).
await shift(ben.userId, new Date(Date.now() - 2 * H - 10 * MIN), new Date(Date.now() - 10 * MIN));

const berlinDay = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());
const deDay = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;

/** Runs /statistik and returns the deferral, the edit of @original and the message as Discord keeps it. */
async function stats(userId: string, options: Record<string, string | number> = {}, locale?: string) {
  const answer = await w.discord.slash(GUILD, userId, 'statistik', { options, channelId: CHANNEL, locale });
  if (answer.type !== 5) return { answer, edit: null as LaterEntry | null, message: null as StandInMessage | null };
  const edit = await answer.next(20_000);
  return { answer, edit, message: w.discord.messages.get(answer.messageId!)! };
}

/** The PNG decoded: its size, how many colours it has, and whether the accent colour is drawn. */
async function decode(png: Buffer) {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
  const colours = new Set<number>();
  let accent = 0;
  for (let i = 0; i < data.length; i += 4) {
    colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    if (Math.abs(data[i] - 0x1e) < 8 && Math.abs(data[i + 1] - 0x90) < 8 && Math.abs(data[i + 2] - 0xff) < 8) accent++;
  }
  return { width: image.width, height: image.height, colours: colours.size, accent };
}

/** What Discord shows: a public message with the embed, the PNG as its image, served by the CDN. */
async function checkPosted(t: Test, r: Awaited<ReturnType<typeof stats>>, size: [number, number]) {
  t.equal(r.answer.type, 5, 'deferred first');
  t.equal(r.answer.data.flags ?? 0, 0, 'in public, not ephemeral');
  t.equal(r.edit!.method, 'PATCH');
  t.match(r.edit!.path, /\/messages\/@original$/, 'then the deferred reply is edited');
  t.same(r.edit!.files.map((f) => [f.field, f.filename]), [['files[0]', 'dienstzeiten.png']], 'one file as multipart files[0]');
  t.equal(r.edit!.body.embeds[0].image.url, 'attachment://dienstzeiten.png');
  const m = r.message!;
  t.ok(w.discord.channelMessages(CHANNEL).includes(m), 'the channel shows it to everyone');
  t.equal(m.attachments.length, 1);
  const [file] = m.attachments;
  t.same([file.filename, file.contentType, file.width, file.height], ['dienstzeiten.png', 'image/png', ...size]);
  const embed = m.embeds[0];
  t.equal(embed.color, ACCENT, 'the guild\'s accent colour');
  t.match(embed.image.url, new RegExp(`/cdn/attachments/${CHANNEL}/${file.id}/dienstzeiten\\.png$`), 'the embed shows the attached file');
  const served = await fetch(embed.image.url);
  t.equal(served.status, 200);
  const png = Buffer.from(await served.arrayBuffer());
  t.ok(png.equals(file.data), 'the CDN serves the uploaded bytes');
  const img = await decode(png);
  t.same([img.width, img.height], size, `decodes as ${size.join('×')}`);
  t.ok(img.width * img.height <= 1_000_000, 'within a million pixels');
  t.ok(img.colours > 50, `not blank (${img.colours} colours)`);
  return { embed, img };
}

t.test('the command is registered with German names, English localizations, choices and bounds', async (t) => {
  const cmd = w.discord.commands().find((c) => c.name === 'statistik');
  t.ok(cmd, '/statistik is registered');
  t.same(cmd.name_localizations, { 'en-US': 'stats', 'en-GB': 'stats' });
  t.match(cmd.description, /Dienstzeit-Rangliste/);
  t.match(cmd.description_localizations['en-GB'], /duty-time leaderboard/);
  t.same(cmd.options.map((o: any) => [o.name, o.name_localizations['en-US'], o.type, o.required]), [
    ['zeitraum', 'period', 3, false], ['anzahl', 'count', 4, false], ['diagramm', 'chart', 3, false],
  ]);
  const [period, count, chart] = cmd.options;
  t.same(period.choices.map((c: any) => [c.name, c.name_localizations['en-US'], c.value]), [
    ['Tag', 'Day', 'daily'], ['Woche', 'Week', 'weekly'], ['Monat', 'Month', 'monthly'], ['Gesamt', 'All time', 'alltime'],
  ]);
  t.same([count.min_value, count.max_value], [1, 25]);
  t.same(chart.choices.map((c: any) => [c.name, c.name_localizations['en-US'], c.value]), [['Balken', 'Bars', 'bars'], ['Anteil', 'Share', 'share'], ['Verlauf', 'Trend', 'trend']]);
  await t.rejects(w.discord.slash(GUILD, anna.userId, 'statistik', { options: { anzahl: 26 } }), /at most 25/, 'Discord\'s client offers 1–25 only');
});

t.test('default: this week as bars, totals exactly as the leaderboard route counts them', async (t) => {
  const r = await stats(anna.userId);
  const { embed } = await checkPosted(t, r, [1333, 750]);
  const rest = (await w.api('GET', '/stats/leaderboard?period=weekly', { key: w.key })).body;
  t.equal(embed.title, 'Dienstzeit-Rangliste · Wache \\*Nord\\*', 'the guild name, markdown escaped');
  // Ben's 2 h are this week's unless the week began within the last 2 h 10 min: the route decides, the embed must agree.
  const { totals, trend } = rest;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  t.same((embed.description as string).split('\n'), [
    `**Woche** ${deDay(rest.range.firstDay)} – ${deDay(rest.range.lastDay)}`,
    `**${formatDuration(totals.totalMs)}** von ${plural(totals.activeCount, 'Person', 'Personen')} · ${plural(totals.totalShifts, 'Schicht', 'Schichten')}`,
    `Zeitraum davor (${deDay(trend.previous.firstDay)} – ${deDay(trend.previous.lastDay)}): ${formatDuration(trend.previous.totalMs)}${trend.changePct === null ? '' : ` · ${trend.changePct > 0 ? '+' : trend.changePct < 0 ? '−' : ''}${Math.abs(trend.changePct).toLocaleString('de-DE')} %`}`,
    '',
    ...(rest.rows.length ? rest.rows.map((row: any) => `**${row.place}.** \`02\` Ben Crew · ${formatDuration(row.totalMs)}`) : ['Niemand war in diesem Zeitraum im Dienst.']),
  ]);
  t.equal(embed.footer.text, 'Angefordert von Anna Admin');
});

t.test('Gesamt as share, anzahl 2: two rows, totals of everyone, exact', async (t) => {
  const r = await stats(anna.userId, { zeitraum: 'alltime', diagramm: 'share', anzahl: 2 });
  const { embed, img } = await checkPosted(t, r, [1154, 866]);
  t.ok(img.accent > 500, `the accent colour is drawn (${img.accent} px)`);
  t.same((embed.description as string).split('\n'), [
    `**Gesamt** bis ${berlinDay}`,
    '**14 h 30 min** von 3 Personen · 5 Schichten',
    '',
    '**1.** `01` Anna Admin · 7 h 30 min',
    '**2.** `02` Ben Crew · 5 h 15 min',
  ]);
});

t.test('Tag as trend, and a name with markdown is shown as written', async (t) => {
  await shift(cem.userId, new Date(Date.now() - 40 * MIN), new Date(Date.now() - 5 * MIN));
  const r = await stats(anna.userId, { zeitraum: 'daily', diagramm: 'trend' });
  const { embed } = await checkPosted(t, r, [1333, 750]);
  const rest = (await w.api('GET', '/stats/leaderboard?period=daily', { key: w.key })).body;
  const lines = (embed.description as string).split('\n');
  t.equal(lines[0], `**Tag** ${berlinDay}`);
  const row = rest.rows.find((x: any) => x.userId === cem.userId);
  t.ok(lines.includes(`**${row.place}.** Cem \\*Star\\* \\_x\\_ · ${formatDuration(row.totalMs)}`), 'no badge, markdown escaped');
  await w.server.sql`delete from shifts where guild_id = ${GUILD} and user_id = ${cem.userId} and clock_in_at > now() - interval '1 hour'`;
});

t.test('Monat as bars with anzahl 25', async (t) => {
  const r = await stats(discordAdmin.id, { zeitraum: 'monthly', anzahl: 25 });
  const { embed } = await checkPosted(t, r, [1333, 750]);
  t.match(embed.description, /^\*\*Monat\*\* 01\.\d\d\.\d{4} – \d\d\.\d\d\.\d{4}\n/);
  t.equal(embed.footer.text, 'Angefordert von Olga Owner', 'Discord\'s "Manage Server" may post it without a personnel entry');
});

t.test('who may post: stats.leaderboard.view, admins and "Manage Server"; others are refused in private', async (t) => {
  const before = w.discord.channelMessages(CHANNEL).length;
  const refused = await w.discord.slash(GUILD, ben.userId, 'statistik');
  t.equal(refused.type, 4, 'an answer, not a deferral');
  t.equal(refused.data.flags & 64, 64, 'ephemeral');
  t.match(refused.data.content, /nur Mitglieder mit der Fähigkeit stats\.leaderboard\.view/);
  t.notOk(refused.data.embeds?.length, 'no leaderboard');
  t.match((await w.discord.slash(GUILD, stranger.id, 'statistik', { locale: 'en-US' })).data.content, /Only members with the capability stats\.leaderboard\.view/);
  t.match((await w.discord.slash(GUILD, dora.userId, 'statistik')).data.content, /nur Mitglieder/, 'a rank without the capability');
  t.equal(w.discord.channelMessages(CHANNEL).length, before, 'nothing was posted');

  await w.server.sql`insert into ranks (guild_id, id, name, position, capabilities) values (${GUILD}, 'stats', 'Statistik', 3, '{stats.leaderboard.view}')`;
  await w.server.sql`update people set rank_id = 'stats' where guild_id = ${GUILD} and user_id = ${dora.userId}`;
  const r = await stats(dora.userId, {}, 'en-US');
  t.equal(r.answer.type, 5, 'the capability is enough');
  t.match(r.message!.embeds[0].title, /^Dienstzeit-Rangliste/, 'the post is in the server\'s language, not the asker\'s');
});

t.test('module stats off: an ephemeral refusal, nothing posted', async (t) => {
  t.equal((await w.api('PATCH', '/admin/modules', { key: w.key, body: { modules: { stats: false } } })).status, 200);
  const answer = await w.discord.slash(GUILD, anna.userId, 'statistik');
  t.equal(answer.type, 4);
  t.equal(answer.data.flags & 64, 64);
  t.equal(answer.data.content, 'Statistik ist für diese Wache ausgeschaltet.');
  t.equal((await w.discord.slash(GUILD, anna.userId, 'statistik', { locale: 'en-GB' })).data.content, 'Statistics are switched off in this guild.');
  t.equal((await w.api('PATCH', '/admin/modules', { key: w.key, body: { modules: { stats: true } } })).status, 200);
  t.equal((await stats(anna.userId)).answer.type, 5, 'on again: posted');
});

t.test('a failure after deferring replaces "thinking…" with a clear message', async (t) => {
  await w.server.sql`alter table shifts rename to shifts_away`;
  let r: Awaited<ReturnType<typeof stats>>;
  try {
    r = await stats(anna.userId);
  } finally {
    await w.server.sql`alter table shifts_away rename to shifts`;
  }
  t.equal(r.answer.type, 5, 'deferred before the query');
  t.equal(r.edit!.body.content, 'Die Dienstzeit-Rangliste konnte nicht erstellt werden. Bitte versuche es erneut; bleibt der Fehler, sieh ins Server-Log.');
  t.same(r.message!.embeds, [], 'no embed');
  t.same(r.message!.attachments, [], 'no file');
  t.equal(r.message!.flags & 128, 0, 'no longer loading');
  t.equal((await stats(anna.userId)).answer.type, 5, 'and it works again');
});
