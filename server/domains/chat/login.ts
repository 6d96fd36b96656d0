import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Deps } from '../../deps.ts';
import { randomToken } from '../../core/ids.ts';
import { hashSecret } from '../../auth/api-keys.ts';
import { insertSession } from '../../auth/store.ts';
import { guildsOfUser } from '../guilds/store.ts';
import { insertOAuthState, takeOAuthState } from './login-store.ts';
import { exchangeCode, fetchGuildIds, fetchUser, OAuthInvalidGrant, OAuthUnavailable, type DiscordUser, type OAuthClientConfig } from './oauth-client.ts';

/**
 * "Login with Discord": OAuth2 authorization code with PKCE (S256). A started sign-in is a random
 * state (256 bits) stored as SHA-256 with its verifier for STATE_TTL_MS, usable once, so the
 * callback may land on any node; the browser that started it also holds a binding (the state's
 * hash, and the guild to open afterwards) in a short-lived cookie, and the callback needs both:
 * a callback link made in another browser signs nobody in (login CSRF).
 */
export const STATE_TTL_MS = 10 * 60_000;

/** Guild ids as the rest of the server accepts them (branding, x-guild-id). */
export const GUILD_ID = /^[0-9A-Za-z_-]{1,64}$/;
const STATE = /^[A-Za-z0-9_-]{43}$/;
const CODE = /^[\x21-\x7e]{1,512}$/;

/** Client id and secret are set: the sign-in can run. */
export function discordLoginEnabled(config: Config): boolean {
  return !!(config.discord.clientId && config.discord.clientSecret);
}

export function redirectUri(config: Config): string {
  return `${config.publicUrl}/auth/discord/callback`;
}

export interface LoginStart {
  /** Discord's authorize page with every parameter: where the browser goes next. */
  authorizeUrl: string;
  /** The cookie value that ties the callback to this browser: `<sha256(state) base64url>.<guild id or empty>`. */
  binding: string;
}

/** Starts a sign-in; `guildId` (already checked against GUILD_ID) is opened afterwards if the user may. */
export async function startDiscordLogin(deps: Deps, guildId: string | null): Promise<LoginStart> {
  const { discord } = deps.config;
  const state = randomToken();
  const verifier = randomToken(); // 43 characters of [A-Za-z0-9_-]: a valid PKCE verifier (RFC 7636 §4.1)
  const stateHash = hashSecret(state);
  await insertOAuthState(deps.sql, stateHash, verifier, STATE_TTL_MS);
  const params = new URLSearchParams({
    client_id: discord.clientId!, redirect_uri: redirectUri(deps.config), response_type: 'code', scope: 'identify guilds',
    state, code_challenge: pkceChallenge(verifier), code_challenge_method: 'S256', prompt: 'none',
  });
  return { authorizeUrl: `${discord.authorizeUrl}?${params}`, binding: `${stateHash.toString('base64url')}.${guildId ?? ''}` };
}

export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** What the callback got: Discord's query parameters and the binding cookie of this browser, if any. */
export interface Callback { code?: string; state?: string; error?: string; binding?: string }

export type LoginOutcome =
  | { kind: 'session'; sessionToken: string; userId: string; guildId: string }
  /** No valid state for this browser (unknown, expired, used, another browser's), or Discord refused the code. */
  | { kind: 'invalid' }
  /** The user pressed "Cancel" at Discord. */
  | { kind: 'cancelled' }
  /** Discord sent another OAuth2 error. */
  | { kind: 'refused'; error: string }
  /** Signed in at Discord, but a member of none of our guilds where they have a personnel entry. */
  | { kind: 'noPersonnel'; user: DiscordUser; notInDiscord: string[] }
  | { kind: 'unavailable'; misconfigured: boolean };

/** The guild the browser asked to open, from its binding (to offer again on a page that says "try again"). */
export function bindingGuild(binding: string | undefined): string | null {
  const dot = binding?.indexOf('.') ?? -1;
  const guild = dot < 0 ? '' : binding!.slice(dot + 1);
  return GUILD_ID.test(guild) ? guild : null;
}

/**
 * Finishes a sign-in: the state must belong to this browser and be valid (it is used up here, also
 * when Discord reports an error), the code is exchanged with the state's verifier, and a session
 * is made — exactly as a login link makes one — for a Discord user who is a member of one of our
 * guilds in Discord and has a personnel entry there. The board then opens the guild the sign-in
 * asked for, if it is one of those, else the first of them.
 */
export async function finishDiscordLogin(deps: Deps, cb: Callback): Promise<LoginOutcome> {
  const stateHash = boundState(cb.state, cb.binding);
  const verifier = stateHash ? await takeOAuthState(deps.sql, stateHash) : null;
  if (cb.error !== undefined) return cb.error === 'access_denied' ? { kind: 'cancelled' } : { kind: 'refused', error: cb.error };
  if (!verifier || !cb.code || !CODE.test(cb.code)) return { kind: 'invalid' };

  const { discord } = deps.config;
  const client: OAuthClientConfig = { apiUrl: discord.apiUrl, clientId: discord.clientId!, clientSecret: discord.clientSecret! };
  let user: DiscordUser;
  let inDiscord: Set<string>;
  try {
    const accessToken = await exchangeCode(client, cb.code, verifier, redirectUri(deps.config));
    [user, inDiscord] = await Promise.all([fetchUser(client, accessToken), fetchGuildIds(client, accessToken)]);
  } catch (err) {
    if (err instanceof OAuthInvalidGrant) return { kind: 'invalid' };
    if (err instanceof OAuthUnavailable) {
      deps.log[err.misconfigured ? 'error' : 'warn']('login with Discord failed', { error: err.message });
      return { kind: 'unavailable', misconfigured: err.misconfigured };
    }
    throw err;
  }

  const ours = await guildsOfUser(deps.sql, user.id);
  const allowed = ours.filter((g) => inDiscord.has(g.guildId));
  if (!allowed.length) return { kind: 'noPersonnel', user, notInDiscord: ours.map((g) => g.name) };
  const sessionToken = randomToken();
  await insertSession(deps.sql, user.id, hashSecret(sessionToken), 'browser');
  const wanted = bindingGuild(cb.binding);
  const guildId = allowed.find((g) => g.guildId === wanted)?.guildId ?? allowed[0].guildId;
  deps.log.info('signed in with Discord', { userId: user.id, guildId });
  return { kind: 'session', sessionToken, userId: user.id, guildId };
}

/** The state's hash when the state has our shape and this browser's binding names it; else null. */
function boundState(state: string | undefined, binding: string | undefined): Buffer | null {
  if (!state || !STATE.test(state) || !binding) return null;
  const hash = hashSecret(state);
  const dot = binding.indexOf('.');
  const bound = Buffer.from(dot < 0 ? binding : binding.slice(0, dot), 'base64url');
  return bound.length === hash.length && timingSafeEqual(bound, hash) ? hash : null;
}
