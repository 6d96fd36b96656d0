import { AppError } from '../core/errors.ts';
import { randomToken } from '../core/ids.ts';
import type { Db } from '../store/db.ts';
import { hashSecret } from './api-keys.ts';
import * as store from './store.ts';

/** A one-time login link for a member of a guild; valid for 15 minutes, usable once. */
export async function createLoginLink(db: Db, publicUrl: string, guildId: string, userId: string): Promise<string> {
  if (!(await store.membership(db, guildId, userId))) throw new AppError('NOT_FOUND', `user ${userId} is not a member of guild ${guildId}`);
  const token = randomToken();
  await store.insertLoginToken(db, guildId, userId, hashSecret(token));
  return `${publicUrl}/auth/login/${token}`;
}

/** Trades a login token for a new session of `kind` (never reusing an old one: no fixation). */
export async function redeemLoginLink(db: Db, token: string, kind: store.SessionKind = 'browser') {
  if (!isLoginToken(token)) return null;
  const owner = await store.redeemLoginToken(db, hashSecret(token));
  if (!owner) return null;
  const sessionToken = randomToken();
  await store.insertSession(db, owner.userId, hashSecret(sessionToken), kind);
  return { ...owner, sessionToken };
}

/** Whether `token` has the shape of a login token (checked before any database look-up). */
export function isLoginToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{20,100}$/.test(token);
}

export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-dt_session' : 'dt_session';
}
