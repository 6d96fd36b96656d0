import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';

const Port = z.coerce.number().int().min(0).max(65535);
const Url = z.url();

const Env = z.object({
  PORT: Port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: Url.optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  DISCORD_TOKEN: z.string().optional(),
  DISCORD_CLIENT_ID: z.string().optional(),
  DISCORD_CLIENT_SECRET: z.string().optional(),
  DISCORD_API_URL: Url.optional(),
  DISCORD_CDN_URL: Url.optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  DEMO: z.enum(['0', '1']).default('1'),
  WS_REVALIDATE_MS: z.coerce.number().int().min(100).default(60_000),
  WS_MAX_BACKPRESSURE: z.coerce.number().int().min(4096).default(1024 * 1024),
  WS_AUTH_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  WS_PENDING_MAX: z.coerce.number().int().min(1).default(256),
  WS_PENDING_PER_ADDRESS: z.coerce.number().int().min(1).default(64),
  METRICS_TOKEN: z.string().regex(/^[\x21-\x7e]{16,}$/, 'must be at least 16 characters without spaces').optional(),
  TRUSTED_PROXIES: z.string().refine((s) => s.split(',').every((a) => isIP(a.trim())), 'must be IP addresses separated by commas').optional(),
});

export type Config = ReturnType<typeof loadConfig>;

/** Validates the environment once; a bad value stops the start with one clear line. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = Env.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const c = parsed.data;
  const publicUrl = (c.PUBLIC_URL ?? localUrl(c.HOST, c.PORT)).replace(/\/$/, '');
  return {
    port: c.PORT,
    host: c.HOST,
    publicUrl,
    /** PUBLIC_URL was given explicitly (so it is not derived from a port that may still change). */
    publicUrlFixed: c.PUBLIC_URL !== undefined,
    secureCookies: publicUrl.startsWith('https://'),
    databaseUrl: c.DATABASE_URL,
    dataDir: resolve(c.DATA_DIR),
    redisUrl: c.REDIS_URL,
    discord: discordConfig(c),
    logLevel: c.LOG_LEVEL,
    demo: c.DEMO === '1',
    /** Reverse proxies whose X-Forwarded-For names the client (for the per-address cap of unauthenticated sockets). */
    trustedProxies: c.TRUSTED_PROXIES?.split(',').map((a) => a.trim()) ?? [],
    /** GET /metrics answers only this bearer token; unset: no /metrics at all. */
    metricsToken: c.METRICS_TOKEN,
    limits: {
      jsonBodyBytes: 1024 * 1024,
      trpcBatch: 10,
      wsMaxPayloadBytes: 64 * 1024,
      /** Bytes queued for a slow socket before it is closed (it then resumes from its last event id). */
      wsMaxBackpressureBytes: c.WS_MAX_BACKPRESSURE,
      wsMessagesPer10s: 200,
      wsSocketsPerPrincipal: 20,
      wsRevalidateMs: c.WS_REVALIDATE_MS,
      /** Sockets that have not proved a principal: closed 4408 after this; at most so many in total and per client address. */
      wsAuthTimeoutMs: c.WS_AUTH_TIMEOUT_MS,
      wsPendingMax: c.WS_PENDING_MAX,
      wsPendingPerAddress: c.WS_PENDING_PER_ADDRESS,
    },
  };
}

export class ConfigError extends Error {}

/**
 * Discord: the bot runs when a token is set; "Login with Discord" needs the client id and secret.
 * `DISCORD_API_URL` (default Discord's own) also places the OAuth2 authorize page, at its origin
 * (`https://discord.com/oauth2/authorize`); tests point both it and `DISCORD_CDN_URL` at a stand-in.
 */
function discordConfig(c: z.infer<typeof Env>) {
  const apiUrl = (c.DISCORD_API_URL ?? 'https://discord.com/api').replace(/\/$/, '');
  const clientId = c.DISCORD_CLIENT_ID ?? (c.DISCORD_TOKEN ? applicationIdOfToken(c.DISCORD_TOKEN) : undefined);
  return {
    token: c.DISCORD_TOKEN,
    clientId,
    clientSecret: c.DISCORD_CLIENT_SECRET,
    apiUrl,
    cdnUrl: (c.DISCORD_CDN_URL ?? 'https://cdn.discordapp.com').replace(/\/$/, ''),
    authorizeUrl: `${new URL(apiUrl).origin}/oauth2/authorize`,
  };
}

/** A bot token's first part is its application id in base64 (how Discord builds tokens); undefined if it is not. */
function applicationIdOfToken(token: string): string | undefined {
  const id = Buffer.from(token.split('.')[0] ?? '', 'base64').toString('utf8');
  return /^\d{15,22}$/.test(id) ? id : undefined;
}

/** The server's URL for a browser on this machine: one listening on every interface is reached on loopback. */
export function localUrl(host: string, port: number): string {
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
}
