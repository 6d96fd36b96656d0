import type { Db } from '../store/db.ts';

// ---- API keys ------------------------------------------------------------------------------

export interface ApiKeyRow { id: string; guildId: string; name: string; scopes: string[] | null }

export async function apiKeyByHash(db: Db, keyHash: Buffer): Promise<ApiKeyRow | null> {
  const [row] = await db`select id::text, guild_id, name, scopes from api_keys where key_hash = ${keyHash}`;
  return row ? { id: row.id, guildId: row.guild_id, name: row.name, scopes: row.scopes } : null;
}

export async function touchApiKey(db: Db, keyId: string): Promise<void> {
  await db`update api_keys set last_used_at = now() where id = ${keyId}`;
}

// ---- Sessions and one-time login tokens -----------------------------------------------------

export const SESSION_ABSOLUTE_MS = 14 * 24 * 3600_000;
export const SESSION_IDLE_MS = 24 * 3600_000;
export const LOGIN_TOKEN_MS = 15 * 60_000;

export async function insertLoginToken(db: Db, guildId: string, userId: string, tokenHash: Buffer): Promise<void> {
  await db`insert into login_tokens (token_hash, guild_id, user_id, expires_at)
    values (${tokenHash}, ${guildId}, ${userId}, now() + ${LOGIN_TOKEN_MS / 1000} * interval '1 second')`;
}

/** Marks the token used and returns its owner; null when unknown, used or expired. At most once per token. */
export async function redeemLoginToken(db: Db, tokenHash: Buffer): Promise<{ guildId: string; userId: string } | null> {
  const [row] = await db`update login_tokens set used_at = now()
    where token_hash = ${tokenHash} and used_at is null and expires_at > now()
    returning guild_id, user_id`;
  return row ? { guildId: row.guild_id, userId: row.user_id } : null;
}

/** Why a login token cannot be redeemed (for the page that says so); null when it was never issued. */
export async function loginTokenState(db: Db, tokenHash: Buffer): Promise<{ guildId: string; userId: string; used: boolean; expired: boolean } | null> {
  const [row] = await db`select guild_id, user_id, used_at is not null as used, expires_at <= now() as expired
    from login_tokens where token_hash = ${tokenHash}`;
  return row ? { guildId: row.guild_id, userId: row.user_id, used: row.used, expired: row.expired } : null;
}

/**
 * `browser`: ends SESSION_ABSOLUTE_MS after sign-in. `alarm` (the terminal alarm client of a station
 * PC): no absolute end (expires_at = infinity). Both end after SESSION_IDLE_MS without use, and on logout.
 */
export type SessionKind = 'browser' | 'alarm';

export async function insertSession(db: Db, userId: string, tokenHash: Buffer, kind: SessionKind = 'browser'): Promise<void> {
  await db`insert into sessions (token_hash, user_id, kind, expires_at)
    values (${tokenHash}, ${userId}, ${kind}, case when ${kind}::text = 'alarm' then 'infinity'::timestamptz
      else now() + ${SESSION_ABSOLUTE_MS / 1000} * interval '1 second' end)`;
}

/** The session's user and kind when it is neither past its absolute end nor idle too long. */
export async function liveSessionUser(db: Db, tokenHash: Buffer): Promise<{ userId: string; kind: SessionKind; lastSeenAt: Date } | null> {
  const [row] = await db`select user_id, kind, last_seen_at from sessions
    where token_hash = ${tokenHash} and expires_at > now()
      and last_seen_at > now() - ${SESSION_IDLE_MS / 1000} * interval '1 second'`;
  return row ? { userId: row.user_id, kind: row.kind, lastSeenAt: row.last_seen_at } : null;
}

export async function touchSession(db: Db, tokenHash: Buffer): Promise<void> {
  await db`update sessions set last_seen_at = now() where token_hash = ${tokenHash}`;
}

export async function deleteSession(db: Db, tokenHash: Buffer): Promise<boolean> {
  const rows = await db`delete from sessions where token_hash = ${tokenHash} returning 1`;
  return rows.length > 0;
}

// ---- Membership ----------------------------------------------------------------------------

export interface Membership { userId: string; nickname: string; isAdmin: boolean; capabilities: string[] }

export async function membership(db: Db, guildId: string, userId: string): Promise<Membership | null> {
  return (await memberships(db, guildId, [userId])).get(userId) ?? null;
}

/** The memberships of these users in the guild, in one query; a user who is no member is absent. */
export async function memberships(db: Db, guildId: string, userIds: readonly string[]): Promise<Map<string, Membership>> {
  const rows = await db`select p.user_id, p.nickname, p.is_admin, coalesce(r.capabilities, '{}') as capabilities
    from people p left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
    where p.guild_id = ${guildId} and p.user_id = any(${userIds as string[]}::text[])`;
  return new Map(rows.map((row) => [row.user_id as string, { userId: row.user_id, nickname: row.nickname, isAdmin: row.is_admin, capabilities: row.capabilities }]));
}

/**
 * Which of these credentials (sha256 hex) are still valid — keys not deleted, sessions neither
 * expired nor idle — touching the sessions that are: an open board counts as use.
 */
export async function validCredentials(db: Db, keyHashes: string[], sessionHashes: string[]): Promise<Set<string>> {
  const keys = keyHashes.length
    ? await db`select encode(key_hash, 'hex') as h from api_keys where key_hash in (select decode(h, 'hex') from unnest(${keyHashes}::text[]) h)`
    : [];
  const sessions = sessionHashes.length ? await db`update sessions set last_seen_at = now()
    where token_hash in (select decode(h, 'hex') from unnest(${sessionHashes}::text[]) h) and expires_at > now()
      and last_seen_at > now() - ${SESSION_IDLE_MS / 1000} * interval '1 second'
    returning encode(token_hash, 'hex') as h` : [];
  return new Set([...keys.map((r) => `k:${r.h}`), ...sessions.map((r) => `s:${r.h}`)]);
}
