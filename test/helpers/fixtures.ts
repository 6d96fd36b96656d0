import type { Sql } from '../../server/store/db.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import { insertPerson, insertRank } from '../../server/domains/people/store.ts';
import { createApiKey } from '../../server/domains/apikeys/service.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { call } from './server.ts';
import { errorReasons, type ErrorReason } from '../../contract/errors.ts';

export interface PersonSpec { userId: string; nickname: string; badge?: string | null; rank?: string | null; admin?: boolean }

/**
 * A guild with ranks `crew` (timeclock.own.use), `dispatch` (+ timeclock.manage) and `none` (nothing),
 * and the given people (badges stored normalised, like the CLI does).
 */
export async function seedGuild(sql: Sql, guildId: string, people: PersonSpec[] = []): Promise<void> {
  await insertGuild(sql, guildId, `Guild ${guildId}`);
  await insertRank(sql, guildId, { id: 'crew', name: 'Crew', position: 1, capabilities: ['timeclock.own.use'] });
  await insertRank(sql, guildId, { id: 'dispatch', name: 'Dispatch', position: 2, capabilities: ['timeclock.own.use', 'timeclock.manage'] });
  await insertRank(sql, guildId, { id: 'none', name: 'Guest', position: 0, capabilities: [] });
  for (const p of people) {
    await insertPerson(sql, guildId, {
      userId: p.userId, nickname: p.nickname,
      badge: p.badge === undefined || p.badge === null ? null : String(Number(p.badge)).padStart(2, '0'),
      rankId: p.rank ?? null, isAdmin: !!p.admin,
    });
  }
}

export async function unscopedKey(sql: Sql, guildId: string, name = 'test'): Promise<string> {
  return (await createApiKey(sql, guildId, name, null)).key;
}

export async function scopedKey(sql: Sql, guildId: string, scopes: string[], name = 'scoped'): Promise<string> {
  return (await createApiKey(sql, guildId, name, scopes)).key;
}

/** Signs in through the real one-time login link and returns the session cookie. */
export async function signIn(server: { url: string; sql: Sql }, guildId: string, userId: string): Promise<{ cookie: string; guildId: string }> {
  const link = await createLoginLink(server.sql, server.url, guildId, userId);
  const res = await call(server.url, 'GET', new URL(link).pathname);
  const setCookie = res.headers.get('set-cookie');
  if (res.status !== 302 || !setCookie) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { cookie: setCookie.split(';')[0], guildId };
}

/** The assertions `assertError` needs; any tap test object fits. */
export interface Asserts {
  equal(...args: any[]): unknown;
  same(...args: any[]): unknown;
  match(...args: any[]): unknown;
  ok(...args: any[]): unknown;
}

/** A body of an error answer: `{error, reason}` (and `params` where the reason has some), nothing else. */
export function isErrorBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.error === 'string' && errorReasons.includes(b.reason as ErrorReason) && Object.keys(b).every((k) => ['error', 'reason', 'params'].includes(k));
}

/**
 * An error answer as spec §7 promises it: `status`, and a JSON body whose `error` holds a
 * non-empty string (optionally matching `message`), with the additive `reason` of
 * contract/errors.ts (and `params` where the reason has some), nothing else.
 */
export function assertError(t: Asserts, res: { status: number; body: unknown }, status: number, label = '', message?: RegExp): void {
  const at = label ? `${label}: ` : '';
  t.equal(res.status, status, `${at}status ${status}`);
  const body = res.body as Record<string, unknown> | string;
  const keys = typeof body === 'object' && body !== null ? Object.keys(body) : body;
  t.ok(Array.isArray(keys) && keys.includes('error') && keys.includes('reason') && keys.every((k) => ['error', 'reason', 'params'].includes(k)), `${at}body is {error, reason} (params where the reason has some): ${JSON.stringify(keys)}`);
  t.ok(typeof body === 'object' && errorReasons.includes(body?.reason as ErrorReason), `${at}reason ${typeof body === 'object' ? body?.reason : ''} is one of contract/errors.ts`);
  t.match(typeof body === 'object' && body !== null ? body.error : undefined, message ?? /\S/, `${at}error is a non-empty string`);
}

/** The key scopes of spec §5.7, copied from the spec (not from the server) so a drift fails a test. */
export const specScopes = [
  'calls:call.report', 'calls:read', 'employees:read', 'ranks:personal.ranks_set', 'timeclock:shift.ingame_clock',
  'units:unit.ingame_status', 'facility:queue.ingame_ticket', 'sessions:ingame.tablet_login',
  'facility:hospital.ingame_read', 'facility:hospital.ingame_layout', 'capabilities:read',
  // Beyond the spec: added by issue 31 (unit positions from the game).
  'units:unit.ingame_position',
];
