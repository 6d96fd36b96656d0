/**
 * A local stand-in for Discord, for tests: REST API v10 (what a discord.js bot and "Login with
 * Discord" call), the CDN's emoji images, the gateway (WebSocket: identify, heartbeat, resume,
 * dispatches) and the OAuth2 authorize page, on 127.0.0.1 and a free port. It checks what Discord
 * checks (tokens, limits of messages, commands and modals, the 3 s interaction window, PKCE), so a
 * bot that passes here is not refused by Discord for the same reasons.
 *
 * Modules: discord-standin/state.ts (data and payloads), gateway.ts, rest.ts (REST, CDN, pages),
 * interactions.ts (+ options.ts), messages.ts (+ attachments.ts: multipart files, `attachment://`),
 * oauth.ts, validate.ts (Discord's limits), http.ts, images.ts.
 */
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { Gateway, Intent } from './discord-standin/gateway.ts';
import { Interactions, type InteractionAnswer } from './discord-standin/interactions.ts';
import { Messages } from './discord-standin/messages.ts';
import { OAuth } from './discord-standin/oauth.ts';
import { Rest, type RecordedRequest } from './discord-standin/rest.ts';
import { snowflake, World, type StandInEmoji, type StandInMember, type StandInMessage, type StandInUser } from './discord-standin/state.ts';

export type { StandInEmoji, StandInMember, StandInMessage, StandInUser, StandInAttachment } from './discord-standin/state.ts';
export type { InteractionAnswer, LaterEntry } from './discord-standin/interactions.ts';
export type { RecordedRequest } from './discord-standin/rest.ts';
export type { UploadedFile } from './discord-standin/http.ts';
export { ATTACHMENT_SIZE_LIMIT } from './discord-standin/attachments.ts';
export { Intent } from './discord-standin/gateway.ts';

export interface StandInOptions {
  applicationId?: string;
  /** HELLO's heartbeat interval (default 41250 as Discord; smaller makes discord.js beat sooner). */
  heartbeatIntervalMs?: number;
  /** Privileged intents enabled for the application (Intent.guildMembers | ...); others close with 4014 as in Discord. Default none. */
  privilegedIntents?: number;
  /** How long after INTERACTION_CREATE Discord accepts the callback (default 3000). */
  callbackWindowMs?: number;
  /** How long slash()/button()/modalSubmit()/autocomplete() wait for the bot's answer (default 5000). */
  answerTimeoutMs?: number;
}

export interface DiscordStandIn {
  /** http://127.0.0.1:P/api (discord.js appends /v10), http://127.0.0.1:P/cdn, http://127.0.0.1:P (serves /oauth2/authorize). */
  apiUrl: string; cdnUrl: string; origin: string;
  applicationId: string; clientSecret: string; botUserId: string;
  /** A token in Discord's format: base64(applicationId) + '.' + ... ; REST checks `Authorization: Bot <token>`. */
  botToken: string;
  /** DISCORD_TOKEN, DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET, DISCORD_API_URL, DISCORD_CDN_URL for startTestServer. */
  env(): Record<string, string>;

  /** A guild the bot is in (dispatches GUILD_CREATE to connected gateway sessions). Default: one text channel. */
  addGuild(g: { id: string; name: string; preferredLocale?: string; channels?: { id: string; name: string }[]; emojis?: StandInEmoji[]; ownerId?: string }): void;
  addMember(guildId: string, m: StandInMember): void;
  /** Added: a Discord user in no guild (for OAuth2 sign-ins of strangers). */
  addUser(u: StandInUser): void;
  /** Replaces the guild's emojis; dispatches GUILD_EMOJIS_UPDATE unless `dispatch: false`. */
  setEmojis(guildId: string, emojis: StandInEmoji[], opts?: { dispatch?: boolean }): void;

  /** Every REST request, in arrival order; `path` without the /api/v10 prefix and query, e.g. method 'PATCH', path '/channels/1/messages/2'. */
  requests: RecordedRequest[];
  /** Added: every CDN request (`path` as requested, e.g. '/cdn/emojis/1.png'). */
  cdnRequests: Array<{ path: string; status: number; at: number }>;
  messages: Map<string, StandInMessage>;
  /** The channel's messages in order, without deleted and ephemeral ones. */
  channelMessages(channelId: string): StandInMessage[];
  /** As if a user deleted it in Discord: later GET/PATCH answer 404 {code: 10008, message: 'Unknown Message'}. */
  deleteMessage(messageId: string): void;
  /** The application commands as last registered (global PUT /applications/{id}/commands, or per guild). */
  commands(guildId?: string): any[];

  /** Gateway: number of IDENTIFYs received, sockets open now, and a promise for a session that got READY (or RESUMED) and its GUILD_CREATEs. */
  identifies: number;
  /** Added: RESUMEs accepted, and the last IDENTIFY's payload (without the token). */
  resumes: number;
  lastIdentify: Record<string, unknown> | null;
  openSockets(): number;
  /** Resolves once a session on an open socket has had READY (or RESUMED) and its guilds; at once if one has (default 10 s). */
  waitForReady(ms?: number): Promise<void>;
  /** Sends a raw dispatch (op 0, with `t` and the next `s`) to every open, identified session. */
  dispatch(event: string, data: unknown): void;
  /** Closes every gateway socket (code 4000) as a network cut would; the client reconnects/resumes. */
  dropGateway(): void;

  /** Interactions: sent as INTERACTION_CREATE; resolve with the bot's first callback (reject after 5 s without one). */
  slash(guildId: string, userId: string, name: string, opts?: { subcommand?: string; options?: Record<string, string | number | boolean>; channelId?: string; locale?: string }): Promise<InteractionAnswer>;
  button(guildId: string, userId: string, messageId: string, customId: string, opts?: { locale?: string }): Promise<InteractionAnswer>;
  modalSubmit(guildId: string, userId: string, customId: string, fields: Record<string, string>, opts?: { channelId?: string; locale?: string }): Promise<InteractionAnswer>;
  autocomplete(guildId: string, userId: string, name: string, opts: { subcommand?: string; focused: { name: string; value: string }; options?: Record<string, string> }): Promise<InteractionAnswer>;

  /** The next `count` REST requests whose "METHOD /path" matches `match` (default: all) answer 429 with `retry_after` seconds (headers and body as Discord sends them). */
  rateLimit(opts: { count: number; retryAfter: number; match?: RegExp; global?: boolean }): void;
  /** Discord down: REST, CDN and the authorize page answer 503, gateway sockets are cut and new ones refused, until up(). With `invalidateSessions`, sessions cannot be resumed afterwards. */
  down(opts?: { invalidateSessions?: boolean }): void;
  up(): void;

  /** OAuth2: the user the authorize page signs in as (it then redirects to redirect_uri with code and the same state); null: the user cancels. A user in no guild is made up (or added with addUser). */
  signInAs(userId: string | null): void;
  /** Added: every authorize page request (query and status). */
  authorizations: Array<{ query: Record<string, string>; status: number; at: number }>;
  close(): Promise<void>;
}

export async function startDiscordStandIn(t: { teardown(fn: () => unknown): void }, opts: StandInOptions = {}): Promise<DiscordStandIn> {
  const world = new World(opts.applicationId);
  const gateway = new Gateway(world, { heartbeatIntervalMs: opts.heartbeatIntervalMs ?? 41_250, privilegedIntents: opts.privilegedIntents ?? 0 });
  const messages = new Messages(world, gateway);
  const interactions = new Interactions(world, gateway, messages, { callbackWindowMs: opts.callbackWindowMs ?? 3_000, answerTimeoutMs: opts.answerTimeoutMs ?? 5_000 });
  const oauth = new OAuth(world);
  const rest = new Rest(world, gateway, messages, interactions, oauth);

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    rest.handle(req, res).catch((err) => {
      // A stand-in bug, not a Discord answer: say so loudly in the test output.
      console.error('discord stand-in failed on', req.method, req.url, err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`discord stand-in bug: ${String(err)}`);
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req, socket, head) => gateway.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${port}`;
  gateway.url = `ws://127.0.0.1:${port}/gateway`;
  world.cdnUrl = `${origin}/cdn`;

  const guildOrThrow = (id: string) => {
    const g = world.guild(id);
    if (!g) throw new Error(`discord stand-in: unknown guild ${id} (addGuild first)`);
    return g;
  };
  let closed = false;

  const standIn: DiscordStandIn = {
    apiUrl: `${origin}/api`, cdnUrl: `${origin}/cdn`, origin,
    applicationId: world.applicationId, clientSecret: world.clientSecret, botUserId: world.botUserId, botToken: world.botToken,
    env: () => ({
      DISCORD_TOKEN: world.botToken, DISCORD_CLIENT_ID: world.applicationId, DISCORD_CLIENT_SECRET: world.clientSecret,
      DISCORD_API_URL: `${origin}/api`, DISCORD_CDN_URL: `${origin}/cdn`,
    }),

    addGuild(g) {
      if (world.guilds.has(g.id)) throw new Error(`discord stand-in: guild ${g.id} exists already`);
      const guild = {
        id: g.id, name: g.name, preferredLocale: g.preferredLocale ?? 'de', ownerId: g.ownerId ?? '100000000000000001',
        joinedAt: new Date().toISOString(),
        channels: g.channels ?? [{ id: snowflake(), name: 'allgemein' }],
        emojis: [...(g.emojis ?? [])],
        members: new Map<string, StandInMember>(),
        roleIds: { manager: snowflake(), bot: snowflake() },
      };
      world.guilds.set(g.id, guild);
      gateway.dispatch('GUILD_CREATE', world.guildCreatePayload(guild));
    },
    addMember(guildId, m) {
      const guild = guildOrThrow(guildId);
      guild.members.set(m.id, { ...m });
      world.users.set(m.id, { id: m.id, username: m.username, globalName: m.globalName });
      gateway.dispatch('GUILD_MEMBER_ADD', { ...world.memberPayload(guild, m.id), guild_id: guildId }, Intent.guildMembers);
    },
    addUser(u) {
      world.users.set(u.id, { ...u });
    },
    setEmojis(guildId, emojis, o = {}) {
      const guild = guildOrThrow(guildId);
      guild.emojis = [...emojis];
      if (o.dispatch !== false) gateway.dispatch('GUILD_EMOJIS_UPDATE', { guild_id: guildId, emojis: emojis.map((e) => world.emojiPayload(e)) }, Intent.guildExpressions);
    },

    requests: rest.requests,
    cdnRequests: rest.cdnRequests,
    messages: world.messages,
    channelMessages: (channelId) => [...world.messages.values()].filter((m) => m.channelId === channelId && !m.deleted && !m.ephemeral),
    deleteMessage(messageId) {
      const m = world.messages.get(messageId);
      if (!m) throw new Error(`discord stand-in: no message ${messageId}`);
      messages.delete(m);
    },
    commands: (guildId) => world.commands.get(guildId ?? 'global') ?? [],

    get identifies() { return gateway.identifies; },
    get resumes() { return gateway.resumes; },
    get lastIdentify() { return gateway.lastIdentify; },
    openSockets: () => gateway.openSockets(),
    waitForReady: (ms = 10_000) => gateway.waitForReady(ms),
    dispatch: (event, data) => gateway.dispatch(event, data),
    dropGateway: () => gateway.dropAll({ code: 4000, reason: 'stand-in: connection cut' }),

    slash: (...a) => interactions.slash(...a),
    button: (...a) => interactions.button(...a),
    modalSubmit: (...a) => interactions.modalSubmit(...a),
    autocomplete: (...a) => interactions.autocomplete(...a),

    rateLimit: (o) => rest.rateLimit(o),
    down(o = {}) {
      rest.down = true;
      gateway.refusing = true;
      if (o.invalidateSessions) gateway.invalidateSessions();
      gateway.dropAll('terminate');
    },
    up() {
      rest.down = false;
      gateway.refusing = false;
    },

    signInAs(userId) {
      // Any Discord account can sign in; one in no stand-in guild is made up (username user<last 4 digits>).
      if (userId !== null && !world.users.has(userId)) world.users.set(userId, { id: userId, username: `user${userId.slice(-4)}` });
      oauth.signedIn = userId;
    },
    authorizations: oauth.authorizations,

    async close() {
      if (closed) return;
      closed = true;
      gateway.close();
      interactions.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
  t.teardown(() => standIn.close());
  return standIn;
}
