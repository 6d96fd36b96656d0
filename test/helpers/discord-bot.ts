import { startDiscordStandIn, type DiscordStandIn, type StandInMessage } from './discord-standin.ts';
import { seedGuild, unscopedKey, type PersonSpec } from './fixtures.ts';
import { client, startTestServer, type TestServer, type TestServerOptions } from './server.ts';

export const GUILD = '571000000000000001';
export const CHANNEL = '571000000000000101';

/** People of the bot tests: Discord ids as user ids. */
export const crew = [
  { userId: '572000000000000001', nickname: 'Anna Admin', badge: '1', admin: true },
  { userId: '572000000000000002', nickname: 'Ben Crew', badge: '2', rank: 'crew' },
  { userId: '572000000000000003', nickname: 'Cem Ohne Nummer', badge: null, rank: 'crew' },
  { userId: '572000000000000004', nickname: 'Dora Gast', badge: '4', rank: 'none' },
] satisfies PersonSpec[];
/** A Discord member of the server with "Manage Server" and no personnel entry. */
export const discordAdmin = { id: '572000000000000090', username: 'owner', globalName: 'Olga Owner', manageGuild: true };
/** A Discord member with no entry and no rights. */
export const stranger = { id: '572000000000000091', username: 'stranger' };

export interface BotWorld {
  discord: DiscordStandIn;
  server: TestServer;
  api: ReturnType<typeof client>;
  key: string;
}

/**
 * The real server with its bot against the Discord stand-in: guild GUILD with a text channel
 * CHANNEL, the `crew` people (in our database and as Discord members), and the bot connected.
 */
export async function botWorld(t: { teardown(fn: () => unknown): void }, opts: TestServerOptions & { env?: Record<string, string>; discord?: DiscordStandIn } = {}): Promise<BotWorld> {
  const discord = opts.discord ?? await startDiscordStandIn(t);
  if (!opts.discord) {
    discord.addGuild({ id: GUILD, name: 'Wache Nord', channels: [{ id: CHANNEL, name: 'stempeluhr' }] });
    for (const p of crew) discord.addMember(GUILD, { id: p.userId, username: p.nickname.split(' ')[0].toLowerCase(), globalName: p.nickname });
    discord.addMember(GUILD, discordAdmin);
    discord.addMember(GUILD, stranger);
  }
  const ready = discord.waitForReady(15_000);
  const server = await startTestServer(t, { ...discord.env(), ...opts.env }, opts);
  if (!opts.databaseUrl) await seedGuild(server.sql, GUILD, crew);
  await ready;
  const key = await unscopedKey(server.sql, GUILD, 'bot-test');
  return { discord, server, api: client(server), key };
}

/** Waits until `check` holds (polling), or fails with `what`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5_000): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}

/** The guild's panel message in the stand-in (the one the database names). */
export async function panelMessage(w: BotWorld): Promise<StandInMessage | null> {
  const [row] = await w.server.sql`select message_id from chat_panels where guild_id = ${GUILD}`;
  return row ? w.discord.messages.get(row.message_id) ?? null : null;
}

export function panelText(m: StandInMessage | null): string {
  const e = m?.embeds[0];
  return e ? `${e.title}\n${e.description}\n${(e.fields ?? []).map((f: { name: string; value: string }) => `${f.name}: ${f.value}`).join('\n')}` : '';
}

/** PATCHes of one message the stand-in answered with success. */
export function editsOf(w: BotWorld, messageId: string): number {
  return w.discord.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/messages/${messageId}`) && r.status < 300).length;
}

export { serveProcess } from './serve-process.ts';
