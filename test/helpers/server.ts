import type { AutoCloseOptions } from '../../server/domains/timeclock/auto-close.ts';
import type { PositionsOptions } from '../../server/domains/positions/memory.ts';
import { loadConfig } from '../../server/config.ts';
import { createLog } from '../../server/core/log.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import type { Sql } from '../../server/store/db.ts';
import type { GuildEvent } from '../../contract/topics.ts';
import { freshDatabase } from './db.ts';
import { contractViolation } from './contract.ts';
import { Database } from '../../server/store/db.ts';
import type { HubOptions } from '../../server/hub/hub.ts';
import type { Bus } from '../../server/hub/bus.ts';
import type { ChatOptions } from '../../server/chat/discord.ts';

export interface TestServer extends RunningServer {
  sql: Sql;
  /** URL of this server's database, to start another node on the same one. */
  databaseUrl: string;
  /** Guild ids passed to the panel refresher, in call order. */
  panelCalls: string[];
  /** Every event this node's bus handed to it (its own, and those of the guilds it follows), in arrival order. */
  events: GuildEvent[];
}

export interface TestServerOptions {
  /** Join this database (another node of a cluster) instead of creating a fresh one. */
  databaseUrl?: string;
  hub?: Partial<HubOptions>;
  /** Gateway lease and panel timing of the Discord bot (with DISCORD_TOKEN in env). */
  chat?: Partial<ChatOptions>;
  /** How often forgotten shifts are looked for (default 30 s). */
  autoClose?: Partial<AutoCloseOptions>;
  /** The bus between nodes, made by the test (for its timing); default: from REDIS_URL, as in production. */
  bus?: Bus;
  /** Position persistence and eviction timing (default: written every 30 s). */
  positions?: Partial<PositionsOptions>;
}

/** The real server (uWS on a free port) on a fresh database; closed with the test. */
export async function startTestServer(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = {}, opts: TestServerOptions = {}): Promise<TestServer> {
  const db = opts.databaseUrl
    ? { db: new Database(opts.databaseUrl, 10), url: opts.databaseUrl, drop: async () => {} }
    : await freshDatabase();
  const ownPool = opts.databaseUrl ? db.db : null;
  const panelCalls: string[] = [];
  const events: GuildEvent[] = [];
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', DEMO: '0', ...env });
  const server = await startServer({
    config,
    log: createLog(config.logLevel),
    db: db.db,
    // With a Discord token the real panel runs (against the stand-in); otherwise calls are recorded.
    panel: env.DISCORD_TOKEN ? undefined : { refresh: (guildId) => panelCalls.push(guildId) },
    hub: opts.hub,
    chat: opts.chat,
    autoClose: opts.autoClose,
    bus: opts.bus,
    positions: opts.positions,
  });
  server.deps.bus.onEvents((evs) => events.push(...evs));
  t.teardown(async () => {
    await server.close();
    await ownPool?.end({ timeout: 1 });
    await db.drop();
  });
  // `sql` follows the server's pool, also after it was renewed (an outage).
  Object.defineProperty(server, 'sql', { get: () => server.deps.sql, enumerable: true });
  return Object.assign(server as RunningServer & { sql: Sql }, { databaseUrl: db.url, panelCalls, events });
}

export interface ApiResponse<T = any> { status: number; body: T; headers: Headers; text: string }

export interface CallOptions {
  key?: string;
  session?: { cookie: string; guildId?: string };
  body?: unknown;
  /** Raw body (string) sent as is; with `contentType`. */
  raw?: string | Uint8Array;
  contentType?: string | null;
  headers?: Record<string, string>;
  /** Skip the OpenAPI contract check (only for requests that are meant to be malformed at the HTTP level). */
  skipContract?: boolean;
}

/** One HTTP call to the server; JSON bodies parsed when the response is JSON. */
export async function call(base: string, method: string, path: string, o: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.session) {
    headers.cookie = o.session.cookie;
    if (o.session.guildId) headers['x-guild-id'] = o.session.guildId;
  }
  let body: string | Uint8Array | undefined;
  if (o.raw !== undefined) body = o.raw;
  else if (o.body !== undefined) body = JSON.stringify(o.body);
  if (body !== undefined || (o.session && method !== 'GET')) {
    if (o.contentType !== null) headers['content-type'] = o.contentType ?? 'application/json';
  }
  // Paths served at the root; anything else is an API path (`/dispatchers` is one, `/dispatch` is not).
  const rootPaths = ['/api/', '/auth/', '/trpc', '/dispatch', '/docs', '/llms.txt', '/embed/'];
  const atRoot = path === '/' || rootPaths.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`) || path.startsWith(`${p}?`));
  const url = atRoot ? base + path : `${base}/api/v1${path}`;
  const res = await fetch(url, { method, headers, body: body as BodyInit | undefined, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json')) parsed = JSON.parse(text);
  const result = { status: res.status, body: parsed, headers: res.headers, text };
  // Every API test doubles as a contract test: the answer must be one the OpenAPI document promises.
  if (!o.skipContract) {
    const violation = await contractViolation(base, method, url, result);
    if (violation) throw new Error(`contract violation: ${violation}`);
  }
  return result;
}

/** `call` bound to one server. */
export function client(server: { url: string }) {
  return (method: string, path: string, o?: CallOptions) => call(server.url, method, path, o);
}
