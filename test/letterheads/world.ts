import { createCanvas, loadImage } from '@napi-rs/canvas';
import { insertPerson, insertRank } from '../../server/domains/people/store.ts';
import type { Sql } from '../../server/store/db.ts';
import { scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { call, startTestServer, type CallOptions } from '../helpers/server.ts';

export const GUILD = 'lh-guild-a';
export const OTHER = 'lh-guild-b';
export const caps = ['view', 'create', 'edit', 'delete'] as const;
export type Cap = (typeof caps)[number];

/**
 * The real server with two guilds. In GUILD: admin Anna, member Ben without any letterhead
 * capability, and one person per rank holding exactly one of documents.letterhead.{view,create,edit,delete};
 * an unscoped and a scoped key. In OTHER: its admin and an unscoped key.
 */
export async function letterheadWorld(t: { teardown(fn: () => unknown): void }) {
  const server = await startTestServer(t);
  const people = [
    { userId: '900000000000000001', nickname: 'Anna', admin: true },
    { userId: '900000000000000002', nickname: 'Ben', rank: 'crew' },
    ...caps.map((c, i) => ({ userId: `90000000000000001${i}`, nickname: `Lh ${c}`, rank: `lh-${c}` })),
  ];
  await seedGuild(server.sql, GUILD, people.slice(0, 2));
  for (const [i, c] of caps.entries()) {
    await insertRank(server.sql, GUILD, { id: `lh-${c}`, name: `Letterhead ${c}`, position: 10 + i, capabilities: [`documents.letterhead.${c}`] });
    await insertPerson(server.sql, GUILD, { ...people[2 + i], badge: null, isAdmin: false, rankId: `lh-${c}` });
  }
  await seedGuild(server.sql, OTHER, [{ userId: '900000000000000009', nickname: 'Olga', admin: true }]);
  const session = async (userId: string, guildId = GUILD) => signIn(server, guildId, userId);
  const who = {
    admin: await session(people[0].userId),
    member: await session(people[1].userId),
    ...Object.fromEntries(await Promise.all(caps.map(async (c, i) => [c, await session(people[2 + i].userId)]))) as Record<Cap, { cookie: string; guildId: string }>,
    key: await unscopedKey(server.sql, GUILD),
    scoped: await scopedKey(server.sql, GUILD, ['calls:read', 'capabilities:read']),
    otherKey: await unscopedKey(server.sql, OTHER),
  };
  const api = (method: string, path: string, o?: CallOptions) => call(server.url, method, path, o);
  return { server, who, api };
}

/** A real image: a w×h PNG of one colour. */
export function solidPng(color: string, w = 40, h = 20): Buffer {
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = color;
  ctx.fillRect(0, 0, w, h);
  return canvas.toBuffer('image/png');
}

/** An upload row of the guild, as POST /uploads would store it; its id. */
export async function insertUpload(sql: Sql, guildId: string, png: Buffer, w = 40, h = 20): Promise<number> {
  const [row] = await sql`insert into uploads (guild_id, name, content_type, size, width, height, data, created_by_kind, created_by_id)
    values (${guildId}, 'logo.png', 'image/png', ${png.length}, ${w}, ${h}, ${png}, 'system', 'test') returning id`;
  return Number(row.id);
}

/** The decoded PNG: its size and how many pixels are within `tolerance` of each colour asked for. */
export async function pixelsOf(png: Buffer, colors: Record<string, string>, tolerance = 6) {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
  const targets = Object.entries(colors).map(([name, hex]) => [name, [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))] as const);
  const counts: Record<string, number> = Object.fromEntries(targets.map(([n]) => [n, 0]));
  let notWhite = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] < 250 || data[i + 1] < 250 || data[i + 2] < 250) notWhite++;
    for (const [name, [r, g, b]] of targets) {
      if (Math.abs(data[i] - r) <= tolerance && Math.abs(data[i + 1] - g) <= tolerance && Math.abs(data[i + 2] - b) <= tolerance) counts[name]++;
    }
  }
  return { width: image.width, height: image.height, notWhite, counts };
}
