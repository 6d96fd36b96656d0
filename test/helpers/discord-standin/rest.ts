import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gateway } from './gateway.ts';
import { DiscordError, invalidForm, missingAccess, notFound, parseBody, readBody, sendJson, unauthorized, unknown, type UploadedFile } from './http.ts';
import { imageType } from './images.ts';
import type { Interactions } from './interactions.ts';
import type { Messages } from './messages.ts';
import type { OAuth } from './oauth.ts';
import { emojiImage, snowflake, type StandInGuild, type World } from './state.ts';
import { checkCommands, commandProblems } from './validate.ts';

export interface RecordedRequest { method: string; path: string; body: any; status: number; at: number }
interface RateLimitRule { count: number; retryAfter: number; match?: RegExp; global?: boolean }

type Auth = { kind: 'bot' } | { kind: 'bearer'; token: string } | { kind: 'none' };
interface Ctx {
  method: string; path: string; params: string[]; query: URLSearchParams; body: any; files: UploadedFile[];
  auth: Auth; headers: IncomingMessage['headers'];
}
type Handler = (c: Ctx) => { status: number; body?: unknown };
/** `auth`: which Authorization a route takes (Discord answers 401 without it). */
interface Route { method: string; pattern: RegExp; auth: 'bot' | 'bot-or-bearer' | 'none'; handle: Handler }

const ok = (body: unknown, status = 200) => ({ status, body });
const decodeSegment = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Discord's REST API v10, its CDN and its OAuth2 pages, as far as a bot and "Login with Discord" use them. */
export class Rest {
  readonly requests: RecordedRequest[] = [];
  readonly cdnRequests: Array<{ path: string; status: number; at: number }> = [];
  private readonly rateLimits: RateLimitRule[] = [];
  down = false;
  private readonly routes: Route[] = [];

  constructor(private readonly world: World, private readonly gateway: Gateway, private readonly messages: Messages, private readonly interactions: Interactions, private readonly oauth: OAuth) {
    this.defineRoutes();
  }

  rateLimit(rule: RateLimitRule) {
    if (!(rule.count > 0) || !(rule.retryAfter >= 0)) throw new Error('discord stand-in: rateLimit needs count > 0 and retryAfter >= 0 (seconds)');
    this.rateLimits.push({ ...rule });
  }

  async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname.startsWith('/api/')) return this.api(req, res, method, url);
    await readBody(req).catch(() => Buffer.alloc(0));
    if (url.pathname.startsWith('/cdn/')) return this.cdn(res, method, url.pathname);
    if (url.pathname === '/oauth2/authorize' && method === 'GET') {
      if (this.down) return this.unavailable(res);
      const answer = this.oauth.authorize(url.searchParams);
      res.writeHead(answer.status, answer.headers);
      return res.end(answer.body);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('404: Not Found');
  }

  private unavailable(res: ServerResponse) {
    sendJson(res, 503, { message: '503: Service Unavailable', code: 0 });
  }

  private async api(req: IncomingMessage, res: ServerResponse, method: string, url: URL) {
    const at = Date.now();
    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch {
      return sendJson(res, 413, { message: 'Request entity too large', code: 40005 });
    }
    const versioned = /^\/api\/v10(\/.*)$/.exec(url.pathname);
    // discord.js percent-encodes some segments ('%40original'); Discord routes on the decoded path.
    const path = (versioned ? versioned[1] : url.pathname).split('/').map(decodeSegment).join('/');
    const parsed = parseBody(raw, req.headers['content-type']);
    const record = (status: number) => this.requests.push({ method, path, body: parsed.body, status, at });

    if (this.down) {
      record(503);
      return this.unavailable(res);
    }
    const key = `${method} ${path}`;
    const rule = this.rateLimits.find((r) => r.count > 0 && (!r.match || r.match.test(key)));
    if (rule) {
      rule.count--;
      if (rule.count === 0) this.rateLimits.splice(this.rateLimits.indexOf(rule), 1);
      record(429);
      return sendJson(res, 429, { message: 'You are being rate limited.', retry_after: rule.retryAfter, global: Boolean(rule.global) }, {
        ...this.limitHeaders(method, path, rule.retryAfter),
        'retry-after': String(rule.retryAfter),
        'x-ratelimit-scope': rule.global ? 'global' : 'user',
        ...(rule.global ? { 'x-ratelimit-global': 'true' } : {}),
      });
    }

    let status = 500;
    let body: unknown;
    try {
      if (!versioned) throw notFound();
      if (parsed.invalid) throw new DiscordError(400, { message: 'The request body contains invalid JSON.', code: 50109 });
      const { route, params } = this.match(method, path);
      const auth: Auth = route.auth === 'none' ? { kind: 'none' } : this.authOf(req.headers.authorization);
      if (route.auth === 'bot' && auth.kind !== 'bot') throw unauthorized();
      if (route.auth === 'bot-or-bearer' && auth.kind === 'none') throw unauthorized();
      ({ status, body } = route.handle({ method, path, params, query: url.searchParams, body: parsed.body, files: parsed.files, auth, headers: req.headers }));
    } catch (err) {
      if (!(err instanceof DiscordError)) throw err;
      ({ status, body } = err);
    }
    record(status);
    sendJson(res, status, body, this.limitHeaders(method, path, null));
  }

  /** Rate-limit headers of a generous bucket (discord.js never waits on its own), or of an exhausted one. */
  private limitHeaders(method: string, path: string, retryAfter: number | null): Record<string, string> {
    const route = path.replace(/\/\d{15,22}(?=\/|$)/g, '/:id').replace(/\/webhooks\/:id\/[^/]+/, '/webhooks/:id/:token');
    const bucket = createHash('sha1').update(`${method} ${route}`).digest('hex').slice(0, 32);
    const resetAfter = retryAfter ?? 60;
    return {
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': retryAfter === null ? '999' : '0',
      'x-ratelimit-reset': ((Date.now() + resetAfter * 1000) / 1000).toFixed(3),
      'x-ratelimit-reset-after': resetAfter.toFixed(3),
      'x-ratelimit-bucket': bucket,
    };
  }

  private authOf(header: string | undefined): Auth {
    if (!header) return { kind: 'none' };
    const bot = /^Bot\s+(.+)$/.exec(header);
    if (bot) {
      if (bot[1] !== this.world.botToken) throw unauthorized();
      return { kind: 'bot' };
    }
    const bearer = /^Bearer\s+(.+)$/.exec(header);
    if (bearer) {
      if (!this.oauth.hasToken(bearer[1])) throw unauthorized();
      return { kind: 'bearer', token: bearer[1] };
    }
    throw unauthorized();
  }

  private match(method: string, path: string): { route: Route; params: string[] } {
    let pathKnown = false;
    for (const route of this.routes) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      pathKnown = true;
      if (route.method === method) return { route, params: m.slice(1) };
    }
    if (pathKnown) throw new DiscordError(405, { message: '405: Method Not Allowed', code: 0 });
    throw notFound();
  }

  private cdn(res: ServerResponse, method: string, pathname: string) {
    const answer = (status: number, type: string, body: Buffer | string) => {
      this.cdnRequests.push({ path: pathname, status, at: Date.now() });
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'public, max-age=86400' });
      res.end(method === 'HEAD' ? undefined : body);
    };
    if (this.down) return answer(503, 'text/plain', '503 Service Unavailable');
    if (method !== 'GET' && method !== 'HEAD') return answer(405, 'text/plain', '405: Method Not Allowed');
    const emoji = /^\/cdn\/emojis\/(\d+)\.(png|gif|webp|jpg|jpeg|avif)$/.exec(pathname);
    if (emoji) {
      const e = [...this.world.guilds.values()].flatMap((g) => g.emojis).find((x) => x.id === emoji[1]);
      if (!e) return answer(404, 'text/plain', '404: Not Found');
      const bytes = emojiImage(e);
      return answer(200, imageType(bytes), bytes);
    }
    const file = /^\/cdn\/attachments\/(\d+)\/(\d+)\/[^/]+$/.exec(pathname);
    if (file) {
      const a = [...this.world.messages.values()].filter((m) => m.channelId === file[1] && !m.deleted).flatMap((m) => m.attachments).find((x) => x.id === file[2]);
      if (a) return answer(200, a.contentType, a.data);
    }
    return answer(404, 'text/plain', '404: Not Found');
  }

  // ---------------- routes ----------------

  private guildOf(id: string): StandInGuild {
    const guild = this.world.guild(id);
    if (!guild) throw unknown('Guild', 10004);
    return guild;
  }

  private channelOf(id: string) {
    const found = this.world.channel(id);
    if (!found) throw unknown('Channel', 10003);
    return found;
  }

  private channelMessage(channelId: string, messageId: string) {
    this.channelOf(channelId);
    const m = this.world.messages.get(messageId);
    if (!m || m.deleted || m.ephemeral || m.channelId !== channelId) throw unknown('Message', 10008);
    return m;
  }

  private app(id: string) {
    if (id !== this.world.applicationId) throw missingAccess();
  }

  private registered(scope: string, body: any[]): any[] {
    const guildId = scope === 'global' ? undefined : scope;
    return body.map((c) => {
      const type = c.type ?? 1;
      const key = `${scope}:${type}:${c.name}`;
      const id = this.world.commandIds.get(key) ?? snowflake();
      this.world.commandIds.set(key, id);
      return {
        id, application_id: this.world.applicationId, version: snowflake(), type, name: c.name, name_localizations: c.name_localizations ?? null,
        description: c.description ?? '', description_localizations: c.description_localizations ?? null,
        default_member_permissions: c.default_member_permissions ?? null, dm_permission: c.dm_permission ?? true, nsfw: Boolean(c.nsfw),
        contexts: c.contexts ?? null, integration_types: c.integration_types ?? [0],
        ...(c.options?.length ? { options: c.options } : {}), ...(guildId ? { guild_id: guildId } : {}),
      };
    });
  }

  private commandRoutes(prefix: string, scopeOf: (p: string[]) => string, offset: number) {
    const r = this.routes;
    const scope = (p: string[]) => {
      this.app(p[0]);
      const s = scopeOf(p);
      if (s !== 'global') this.guildOf(s);
      return s;
    };
    r.push({ method: 'GET', pattern: new RegExp(`^${prefix}/commands$`), auth: 'bot', handle: (c) => ok(this.world.commands.get(scope(c.params)) ?? []) });
    r.push({ method: 'PUT', pattern: new RegExp(`^${prefix}/commands$`), auth: 'bot', handle: (c) => {
      const s = scope(c.params);
      checkCommands(c.body);
      const commands = this.registered(s, c.body);
      this.world.setCommands(s, commands);
      return ok(commands);
    } });
    r.push({ method: 'POST', pattern: new RegExp(`^${prefix}/commands$`), auth: 'bot', handle: (c) => {
      const s = scope(c.params);
      const problems = commandProblems(c.body);
      if (problems.length) throw invalidForm(problems);
      const [command] = this.registered(s, [c.body]);
      const before = this.world.commands.get(s) ?? [];
      const existed = before.some((x) => x.id === command.id);
      this.world.setCommands(s, [...before.filter((x) => x.id !== command.id), command]);
      return ok(command, existed ? 200 : 201);
    } });
    const one = new RegExp(`^${prefix}/commands/(\\d+)$`);
    const find = (c: Ctx) => {
      const s = scope(c.params);
      const cmd = (this.world.commands.get(s) ?? []).find((x) => x.id === c.params[offset]);
      if (!cmd) throw unknown('application command', 10063);
      return { s, cmd };
    };
    r.push({ method: 'GET', pattern: one, auth: 'bot', handle: (c) => ok(find(c).cmd) });
    r.push({ method: 'DELETE', pattern: one, auth: 'bot', handle: (c) => {
      const { s, cmd } = find(c);
      this.world.setCommands(s, (this.world.commands.get(s) ?? []).filter((x) => x !== cmd));
      return { status: 204 };
    } });
  }

  private defineRoutes() {
    const r = this.routes;
    const w = this.world;
    const bearerUser = (c: Ctx, scope: string) => (c.auth.kind === 'bearer' ? this.oauth.bearer(c.auth.token, scope).user : null);
    const guildEntry = (g: StandInGuild, userId: string) => ({
      id: g.id, name: g.name, icon: null, banner: null, owner: g.ownerId === userId,
      permissions: w.memberPermissions(g, userId).toString(), features: [],
    });

    r.push({ method: 'GET', pattern: /^\/gateway$/, auth: 'none', handle: () => ok({ url: this.gateway.url }) });
    r.push({ method: 'GET', pattern: /^\/gateway\/bot$/, auth: 'bot', handle: () => ok({
      url: this.gateway.url, shards: 1,
      session_start_limit: { total: 1000, remaining: 1000 - this.gateway.identifies, reset_after: 86_400_000, max_concurrency: 1 },
    }) });

    r.push({ method: 'GET', pattern: /^\/users\/@me$/, auth: 'bot-or-bearer', handle: (c) => {
      const user = bearerUser(c, 'identify');
      return ok(user ? { ...w.userPayload(user), locale: 'de', mfa_enabled: false, premium_type: 0 } : w.botUser());
    } });
    r.push({ method: 'GET', pattern: /^\/users\/@me\/guilds$/, auth: 'bot-or-bearer', handle: (c) => {
      const user = bearerUser(c, 'guilds');
      const id = user?.id ?? w.botUserId;
      const guilds = [...w.guilds.values()].filter((g) => id === w.botUserId || g.members.has(id) || g.ownerId === id);
      return ok(guilds.map((g) => guildEntry(g, id)));
    } });
    r.push({ method: 'GET', pattern: /^\/users\/@me\/guilds\/(\d+)\/member$/, auth: 'bot-or-bearer', handle: (c) => {
      const user = bearerUser(c, 'guilds.members.read');
      if (!user) throw unauthorized();
      const g = w.guild(c.params[0]);
      if (!g || !(g.members.has(user.id) || g.ownerId === user.id)) throw unknown('Guild', 10004);
      return ok(w.memberPayload(g, user.id));
    } });
    r.push({ method: 'GET', pattern: /^\/users\/(\d+)$/, auth: 'bot', handle: (c) => {
      if (c.params[0] === w.botUserId) return ok(w.botUser());
      const u = w.users.get(c.params[0]);
      if (!u) throw unknown('User', 10013);
      return ok(w.userPayload(u));
    } });
    r.push({ method: 'GET', pattern: /^\/oauth2\/@me$/, auth: 'bot-or-bearer', handle: (c) => {
      if (c.auth.kind !== 'bearer') throw unauthorized();
      return ok(this.oauth.info(c.auth.token));
    } });
    r.push({ method: 'POST', pattern: /^\/oauth2\/token$/, auth: 'none', handle: (c) => ok(this.oauth.exchange(c.headers['content-type'], c.body, c.headers.authorization)) });
    r.push({ method: 'POST', pattern: /^\/oauth2\/token\/revoke$/, auth: 'none', handle: (c) => ok(this.oauth.revoke(c.body, c.headers.authorization)) });

    r.push({ method: 'GET', pattern: /^\/applications\/@me$/, auth: 'bot', handle: () => ok({
      id: w.applicationId, name: w.botUsername, icon: null, description: '', summary: '', type: null, bot_public: true, bot_require_code_grant: false,
      verify_key: createHash('sha256').update(w.applicationId).digest('hex'), flags: 0, hook: true, is_monetized: false,
      team: null, owner: { id: '100000000000000001', username: 'owner', global_name: null, discriminator: '0', avatar: null, public_flags: 0, flags: 0 },
      bot: w.botUser(), redirect_uris: [], interactions_endpoint_url: null, install_params: { scopes: ['bot', 'applications.commands'], permissions: '0' },
      integration_types_config: { '0': {} }, approximate_guild_count: w.guilds.size,
    }) });
    this.commandRoutes('/applications/(\\d+)', () => 'global', 1);
    this.commandRoutes('/applications/(\\d+)/guilds/(\\d+)', (p) => p[1], 2);

    r.push({ method: 'GET', pattern: /^\/channels\/(\d+)$/, auth: 'bot', handle: (c) => {
      const { guild, channel, position } = this.channelOf(c.params[0]);
      return ok(w.channelPayload(guild, channel, position));
    } });
    r.push({ method: 'GET', pattern: /^\/channels\/(\d+)\/messages$/, auth: 'bot', handle: (c) => {
      this.channelOf(c.params[0]);
      const limit = Math.min(100, Math.max(1, Number(c.query.get('limit') ?? 50) || 50));
      const before = c.query.get('before');
      const after = c.query.get('after');
      let list = [...w.messages.values()].filter((m) => m.channelId === c.params[0] && !m.deleted && !m.ephemeral);
      if (before) list = list.filter((m) => BigInt(m.id) < BigInt(before));
      if (after) list = list.filter((m) => BigInt(m.id) > BigInt(after));
      return ok(list.reverse().slice(0, limit).map((m) => w.messagePayload(m)));
    } });
    r.push({ method: 'POST', pattern: /^\/channels\/(\d+)\/messages$/, auth: 'bot', handle: (c) => {
      const { guild } = this.channelOf(c.params[0]);
      const m = this.messages.create({ guildId: guild.id, channelId: c.params[0] }, c.body, c.files);
      return ok(w.messagePayload(m));
    } });
    const oneMessage = /^\/channels\/(\d+)\/messages\/(\d+)$/;
    r.push({ method: 'GET', pattern: oneMessage, auth: 'bot', handle: (c) => ok(w.messagePayload(this.channelMessage(c.params[0], c.params[1]))) });
    r.push({ method: 'PATCH', pattern: oneMessage, auth: 'bot', handle: (c) => ok(w.messagePayload(this.messages.edit(this.channelMessage(c.params[0], c.params[1]), c.body, c.files))) });
    r.push({ method: 'DELETE', pattern: oneMessage, auth: 'bot', handle: (c) => {
      this.messages.delete(this.channelMessage(c.params[0], c.params[1]));
      return { status: 204 };
    } });

    r.push({ method: 'GET', pattern: /^\/guilds\/(\d+)$/, auth: 'bot', handle: (c) => {
      const g = this.guildOf(c.params[0]);
      const counts = c.query.get('with_counts') === 'true' ? { approximate_member_count: g.members.size + 1, approximate_presence_count: 0 } : {};
      return ok({ ...w.guildPayload(g), ...counts });
    } });
    r.push({ method: 'GET', pattern: /^\/guilds\/(\d+)\/channels$/, auth: 'bot', handle: (c) => {
      const g = this.guildOf(c.params[0]);
      return ok(g.channels.map((ch, i) => w.channelPayload(g, ch, i)));
    } });
    r.push({ method: 'GET', pattern: /^\/guilds\/(\d+)\/roles$/, auth: 'bot', handle: (c) => ok(w.rolePayloads(this.guildOf(c.params[0]))) });
    r.push({ method: 'GET', pattern: /^\/guilds\/(\d+)\/emojis$/, auth: 'bot', handle: (c) => ok(this.guildOf(c.params[0]).emojis.map((e) => w.emojiPayload(e))) });
    r.push({ method: 'GET', pattern: /^\/guilds\/(\d+)\/emojis\/(\d+)$/, auth: 'bot', handle: (c) => {
      const e = this.guildOf(c.params[0]).emojis.find((x) => x.id === c.params[1]);
      if (!e) throw unknown('Emoji', 10014);
      return ok(w.emojiPayload(e));
    } });
    r.push({ method: 'GET', pattern: /^\/guilds\/(\d+)\/members\/(\d+)$/, auth: 'bot', handle: (c) => {
      const g = this.guildOf(c.params[0]);
      if (!g.members.has(c.params[1]) && c.params[1] !== w.botUserId) throw unknown('Member', 10007);
      return ok(w.memberPayload(g, c.params[1]));
    } });

    r.push({ method: 'POST', pattern: /^\/interactions\/(\d+)\/([^/]+)\/callback$/, auth: 'none', handle: (c) =>
      this.interactions.callback(c.params[0], c.params[1], c.query.get('with_response') === 'true', c.body, c.files) });
    const hook = (c: Ctx, ref: string | null) => this.interactions.webhook(c.method, c.params[0], c.params[1], ref, c.path, c.query, c.body, c.files);
    r.push({ method: 'POST', pattern: /^\/webhooks\/(\d+)\/([^/]+)$/, auth: 'none', handle: (c) => hook(c, null) });
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      r.push({ method, pattern: /^\/webhooks\/(\d+)\/([^/]+)\/messages\/(@original|\d+)$/, auth: 'none', handle: (c) => hook(c, c.params[2]) });
    }
  }
}
