import { z } from 'zod';

/**
 * The three calls of Discord's OAuth2 authorization-code flow the sign-in needs: the token
 * exchange (with the PKCE verifier), the user, and the user's guilds. Every call gives up after
 * TIMEOUT_MS. Failures are typed: `OAuthInvalidGrant` (the code or verifier was refused: start
 * again), `OAuthUnavailable` (Discord unreachable, slow, rate-limited, faulty, or refusing this
 * server's client credentials: `misconfigured`).
 */
export const TIMEOUT_MS = 10_000;

export class OAuthInvalidGrant extends Error {}
export class OAuthUnavailable extends Error {
  constructor(message: string, readonly misconfigured = false) {
    super(message);
  }
}

export interface OAuthClientConfig { apiUrl: string; clientId: string; clientSecret: string }

const Token = z.object({ access_token: z.string().min(1), token_type: z.string() });
const User = z.object({ id: z.string().regex(/^\d{1,22}$/), username: z.string(), global_name: z.string().nullish() });
const Guilds = z.array(z.object({ id: z.string() }));

export interface DiscordUser { id: string; name: string }

/** Trades the authorization code for an access token (form body, client credentials in it, as Discord documents). */
export async function exchangeCode(c: OAuthClientConfig, code: string, codeVerifier: string, redirectUri: string): Promise<string> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier,
    client_id: c.clientId, client_secret: c.clientSecret,
  });
  const res = await request(`${c.apiUrl}/v10/oauth2/token`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  if (res.status === 400) {
    const error = await errorOf(res);
    if (error === 'invalid_grant') throw new OAuthInvalidGrant('Discord refused the code or its PKCE verifier');
    throw new OAuthUnavailable(`Discord refused the token request: ${error}`, error === 'invalid_client' || error === 'unauthorized_client');
  }
  if (res.status === 401) throw new OAuthUnavailable(`Discord refused the client credentials: ${await errorOf(res)}`, true);
  return (await parse(res, Token, 'token')).access_token;
}

export async function fetchUser(c: OAuthClientConfig, accessToken: string): Promise<DiscordUser> {
  const res = await request(`${c.apiUrl}/v10/users/@me`, { headers: { authorization: `Bearer ${accessToken}` } });
  const user = await parse(res, User, 'users/@me');
  return { id: user.id, name: user.global_name || user.username };
}

/** The ids of the guilds the user is a member of (Discord lists up to 200, the most a user can join). */
export async function fetchGuildIds(c: OAuthClientConfig, accessToken: string): Promise<Set<string>> {
  const res = await request(`${c.apiUrl}/v10/users/@me/guilds`, { headers: { authorization: `Bearer ${accessToken}` } });
  return new Set((await parse(res, Guilds, 'users/@me/guilds')).map((g) => g.id));
}

async function request(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS), headers: { ...init.headers, 'user-agent': 'DispatchTerminal (login with Discord)' } });
  } catch (err) {
    const why = (err as Error).name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : String((err as Error).cause ?? err);
    throw new OAuthUnavailable(`Discord cannot be reached: ${why}`);
  }
}

async function parse<T>(res: Response, schema: z.ZodType<T>, what: string): Promise<T> {
  if (!res.ok) {
    await res.body?.cancel();
    throw new OAuthUnavailable(`Discord answered ${res.status} to ${what}`);
  }
  const parsed = schema.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success) throw new OAuthUnavailable(`Discord's answer to ${what} has an unexpected shape`);
  return parsed.data;
}

/** The OAuth2 error code of a refusal (`invalid_grant`, …), or the status when the body has none. */
async function errorOf(res: Response): Promise<string> {
  const body = await res.json().catch(() => null) as { error?: unknown } | null;
  return typeof body?.error === 'string' ? body.error.slice(0, 100) : `HTTP ${res.status}`;
}
