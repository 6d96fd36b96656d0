/**
 * The Discord stand-in takes files as Discord does (multipart/form-data: `payload_json` and
 * `files[n]`) from a real discord.js Client and refuses what Discord refuses: attachment ids that
 * name no file, files without a name, files over the size limit, more than 10 files.
 */
import t from 'tap';
import { Client, DiscordAPIError, GatewayIntentBits, type TextChannel } from 'discord.js';
import { ATTACHMENT_SIZE_LIMIT, startDiscordStandIn } from '../helpers/discord-standin.ts';
import { tinyPng } from '../helpers/discord-standin/images.ts';

const GUILD = '571000000000000001';
const CHANNEL = '571000000000000101';

const discord = await startDiscordStandIn(t);
discord.addGuild({ id: GUILD, name: 'Wache Nord', channels: [{ id: CHANNEL, name: 'statistik' }] });
const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: discord.apiUrl, cdn: discord.cdnUrl, retries: 0 } });
t.teardown(() => client.destroy());
const ready = new Promise<void>((resolve) => client.once('clientReady', () => resolve()));
await client.login(discord.botToken);
await ready;
const channel = client.channels.cache.get(CHANNEL) as TextChannel;
const png = tinyPng('chart');

/** A hand-made multipart request, for what discord.js would never send. */
async function multipart(payload: unknown, parts: Array<{ name: string; filename?: string; data: Buffer }>) {
  const boundary = 'standin-boundary';
  const chunks: Buffer[] = [Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="payload_json"\r\ncontent-type: application/json\r\n\r\n${JSON.stringify(payload)}\r\n`)];
  for (const p of parts) {
    const filename = p.filename === undefined ? '' : `; filename="${p.filename}"`;
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"${filename}\r\ncontent-type: image/png\r\n\r\n`), p.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await fetch(`${discord.apiUrl}/v10/channels/${CHANNEL}/messages`, {
    method: 'POST', body: Buffer.concat(chunks),
    headers: { authorization: `Bot ${discord.botToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  return { status: res.status, body: await res.json() as any };
}

t.test('a file and an embed that shows it: stored with its size, served by the CDN, the embed resolved', async (t) => {
  const sent = await channel.send({ embeds: [{ title: 'Rangliste', image: { url: 'attachment://dienstzeiten.png' } }], files: [{ attachment: png, name: 'dienstzeiten.png', description: 'Balkendiagramm' }] });
  const [file] = sent.attachments.values();
  t.same([file.name, file.contentType, file.size, file.width, file.height, file.description], ['dienstzeiten.png', 'image/png', png.length, 2, 2, 'Balkendiagramm']);
  t.equal(sent.embeds[0].image?.url, file.url, 'the embed shows the attachment by its CDN url');
  t.same([sent.embeds[0].image?.width, sent.embeds[0].image?.height], [2, 2]);
  const served = await fetch(file.url);
  t.equal(served.status, 200);
  t.ok(Buffer.from(await served.arrayBuffer()).equals(png));

  const unmatched = await channel.send({ embeds: [{ image: { url: 'attachment://anders.png' } }], files: [{ attachment: png, name: 'dienstzeiten.png' }] });
  t.equal(unmatched.embeds[0].image?.url, 'attachment://anders.png', 'a name matching no file stays unresolved (Discord shows no image)');
});

t.test('edits: the listed attachments stay, new files are added, attachments: [] removes them', async (t) => {
  const sent = await channel.send({ content: 'mit Datei', files: [{ attachment: png, name: 'a.png' }] });
  const [a] = sent.attachments.values();
  const both = await sent.edit({ attachments: [a], files: [{ attachment: tinyPng('b'), name: 'b.png' }] });
  t.same([...both.attachments.values()].map((x) => x.name), ['a.png', 'b.png']);
  const onlyNew = await both.edit({ files: [{ attachment: tinyPng('c'), name: 'c.png' }] });
  t.same([...onlyNew.attachments.values()].map((x) => x.name), ['c.png'], 'v10: the attachments array lists all that remain (discord.js lists only the new file)');
  const none = await onlyNew.edit({ content: 'ohne', attachments: [] });
  t.equal(none.attachments.size, 0);
});

t.test('what Discord refuses is refused with its codes', async (t) => {
  const missing = await multipart({ content: 'x', attachments: [{ id: '1' }] }, [{ name: 'files[0]', filename: 'a.png', data: png }]);
  t.equal(missing.status, 400);
  t.match(missing.body, { code: 50035, errors: { attachments: { 0: { _errors: [{ code: 'ATTACHMENT_NOT_FOUND' }] } } } }, 'an id naming no uploaded file');

  const foreign = await multipart({ content: 'x', attachments: [{ id: '1234567890123456789' }] }, []);
  t.match(foreign.body, { code: 50035, errors: { attachments: { 0: { _errors: [{ code: 'ATTACHMENT_NOT_FOUND' }] } } } }, 'a new message has no attachments to keep');

  const nameless = await multipart({ content: 'x', attachments: [{ id: '0' }] }, [{ name: 'files[0]', filename: '', data: png }]);
  t.match(nameless.body, { code: 50035, errors: { attachments: { 0: { filename: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] } } } } }, 'a file needs a name');

  const eleven = Array.from({ length: 11 }, (_, i) => ({ attachment: png, name: `${i}.png` }));
  const tooMany = await channel.send({ files: eleven }).catch((e) => e);
  t.ok(tooMany instanceof DiscordAPIError);
  t.match(tooMany.rawError, { code: 50035, errors: { attachments: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } }, 'at most 10 files');

  const big = Buffer.alloc(ATTACHMENT_SIZE_LIMIT + 1, 1);
  const tooLarge = await channel.send({ files: [{ attachment: big, name: 'gross.bin' }] }).catch((e) => e);
  t.ok(tooLarge instanceof DiscordAPIError);
  t.same([tooLarge.status, tooLarge.code], [413, 40005], `a file over ${ATTACHMENT_SIZE_LIMIT} bytes`);
  const atLimit = await channel.send({ files: [{ attachment: Buffer.alloc(ATTACHMENT_SIZE_LIMIT, 1), name: 'grenze.bin' }] });
  t.equal(atLimit.attachments.first()?.size, ATTACHMENT_SIZE_LIMIT, 'exactly at the limit is fine');

  const huge = await multipart({ content: 'x' }, [0, 1, 2].map((i) => ({ name: `files[${i}]`, filename: `${i}.bin`, data: Buffer.alloc(9 * 1024 * 1024, 1) })));
  t.same([huge.status, huge.body.code], [413, 40005], 'a request over 25 MiB');
});
