import { AppError } from '../core/errors.ts';
import { TtlCache } from '../core/ttl-cache.ts';
import type { Database } from '../store/db.ts';
import type { Bus } from '../hub/bus.ts';
import { hashSecret, isWellFormedApiKey } from './api-keys.ts';
import type { Scope } from '../../contract/scopes.ts';
import * as store from './store.ts';

/** `name`: the key's name, shown as who did it (keys are never renamed). */
export type KeyPrincipal = { kind: 'key'; guildId: string; keyId: string; name: string; keyHash: string; scopes: Scope[] | null };
/** `sessionKind` 'alarm': the terminal alarm client's session, which may only watch alarms (trpc/init.ts checkAccess). */
export type SessionPrincipal = {
  kind: 'session'; guildId: string; userId: string; nickname: string;
  isAdmin: boolean; capabilities: ReadonlySet<string>; sessionHash: string; sessionKind: store.SessionKind;
};
export type Principal = KeyPrincipal | SessionPrincipal;

/** The credential-relevant parts of a request, copied out of the transport before any await. */
export interface Credentials { authorization?: string; cookie?: string; guildHeader?: string }

/** What a request proved: a principal, nothing at all, or a specific failure to report when auth is needed. */
export type AuthResult = { principal: Principal } | { principal: null; failure: AppError | null };

const GUILD_ID = /^[0-9A-Za-z_-]{1,64}$/;
const TOUCH_EVERY_MS = 60_000;

/**
 * Resolves credentials to a principal. Hits are cached for a few seconds; revocations (key delete,
 * logout) drop the cache entry on every node through the bus, so they take effect at once.
 */
export function createAuthenticator(db: Database, bus: Bus, cookieName: string) {
  const keys = new TtlCache<store.ApiKeyRow | null>(5_000);
  const sessions = new TtlCache<{ userId: string; kind: store.SessionKind } | null>(5_000);
  const members = new TtlCache<store.Membership | null>(5_000);
  const touched = new TtlCache<true>(TOUCH_EVERY_MS);

  // Bumped by every membership invalidation: a look-up that was already running when one arrived
  // may have read the old rights, so its answer is used once but not cached.
  let memberGeneration = 0;
  bus.onInvalidate((inv) => {
    if (inv.kind === 'apiKey') keys.delete(inv.id);
    else if (inv.kind === 'session') sessions.delete(inv.id);
    else if (inv.kind === 'guild') {
      memberGeneration++;
      members.deletePrefix(`${inv.id}:`);
    }
  });
  // Invalidations may have been lost while the bus was down: forget everything cached.
  bus.onResync(() => {
    memberGeneration++;
    keys.clear();
    sessions.clear();
    members.clear();
  });

  function touchLater(key: string, write: () => Promise<void>) {
    if (touched.get(key)) return;
    touched.set(key, true);
    write().catch(() => touched.delete(key)); // best effort; a failed touch never fails the request
  }

  async function byKey(raw: string): Promise<AuthResult> {
    if (!isWellFormedApiKey(raw)) return { principal: null, failure: new AppError('UNAUTHORIZED', 'invalid API key') };
    const hash = hashSecret(raw);
    const hex = hash.toString('hex');
    let row = keys.get(hex);
    if (row === undefined) {
      row = await store.apiKeyByHash(db.sql, hash);
      keys.set(hex, row);
    }
    if (!row) return { principal: null, failure: new AppError('UNAUTHORIZED', 'invalid API key') };
    touchLater(`k:${row.id}`, () => store.touchApiKey(db.sql, row!.id));
    return { principal: { kind: 'key', guildId: row.guildId, keyId: row.id, name: row.name, keyHash: hex, scopes: row.scopes as Scope[] | null } };
  }

  async function bySession(token: string, guildHeader: string | undefined): Promise<AuthResult> {
    const hash = hashSecret(token);
    const hex = hash.toString('hex');
    let session = sessions.get(hex);
    if (session === undefined) {
      const live = await store.liveSessionUser(db.sql, hash);
      session = live ? { userId: live.userId, kind: live.kind } : null;
      sessions.set(hex, session);
    }
    if (!session) return { principal: null, failure: new AppError('UNAUTHORIZED', 'session expired or invalid: sign in again') };
    if (guildHeader === undefined) return { principal: null, failure: new AppError('BAD_REQUEST', 'x-guild-id header is required with a session') };
    if (!GUILD_ID.test(guildHeader)) return { principal: null, failure: new AppError('BAD_REQUEST', 'x-guild-id is not a valid guild id') };
    const memberKey = `${guildHeader}:${session.userId}`;
    let member = members.get(memberKey);
    if (member === undefined) {
      const generation = memberGeneration;
      member = await store.membership(db.sql, guildHeader, session.userId);
      if (generation === memberGeneration) members.set(memberKey, member);
    }
    if (!member) return { principal: null, failure: new AppError('FORBIDDEN', 'you are not a member of this guild') };
    touchLater(`s:${hex}`, () => store.touchSession(db.sql, hash));
    return {
      principal: {
        kind: 'session', guildId: guildHeader, userId: member.userId, nickname: member.nickname,
        isAdmin: member.isAdmin, capabilities: new Set(member.capabilities), sessionHash: hex, sessionKind: session.kind,
      },
    };
  }

  return {
    cookieName,
    async authenticate(c: Credentials): Promise<AuthResult> {
      if (c.authorization !== undefined) {
        const m = /^Bearer\s+(\S+)\s*$/i.exec(c.authorization);
        if (!m) return { principal: null, failure: new AppError('UNAUTHORIZED', 'Authorization must be "Bearer <API key>"') };
        return byKey(m[1]);
      }
      const token = c.cookie ? readCookie(c.cookie, cookieName) : undefined;
      if (token) return bySession(token, c.guildHeader);
      return { principal: null, failure: null };
    },
    /** Drops cached membership data of a guild (rank or admin changes). */
    forgetGuildMembers(guildId: string) {
      bus.invalidate({ kind: 'guild', id: guildId });
    },
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;

/** The cookie's value; a value with broken percent-encoding is returned as is (it then matches no session). */
export function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}
