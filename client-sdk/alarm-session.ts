/**
 * The alarm client's session: a one-time login link is POSTed (`{"device":"alarm"}`), which the
 * server answers with an alarm session (no absolute end; ends after a day unused, on logout or
 * revocation) as its HttpOnly cookie. The session is kept in a state file (mode 600) so a restart
 * of the client needs no new link.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
// A pure helper shared with the server: bundled into the package, not imported from server/ at run time.
import { writeFileAtomically } from './atomic-file.ts';
import { BilingualError, both, type Text } from './alarm-words.ts';

export interface AlarmSession {
  /** Server root, e.g. `https://dispatch.example` (what precedes `/auth/login/` in the link). */
  url: string;
  /** `name=value` of the session cookie, sent on every request and on the WebSocket upgrade. */
  cookie: string;
  guildId: string;
  userId: string;
}

/** The session cannot be used (or could not be made): the message (in German and English: `text`) says what to do. */
export class AlarmSessionError extends BilingualError {
  override name = 'AlarmSessionError';
}

/** Where the session is kept unless `--state` says otherwise: `$XDG_CONFIG_HOME/dispatch-terminal/alarm.json`. */
export function defaultStateFile(env: Record<string, string | undefined> = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'dispatch-terminal', 'alarm.json');
}

export function newLinkHint(s: { guildId: string; userId: string }): string {
  return `get a new link with: npx dispatch-terminal login-link --guild ${s.guildId} --user ${s.userId}`;
}

/** "The session has ended … get a new link with: …", in both languages. */
export function sessionEnded(s: { guildId: string; userId: string }): Text {
  return both((w) => w.sessionEnded(w.newLinkHint(s.guildId, s.userId)));
}

/** `https://host/prefix/auth/login/<token>` → its server root and token. */
export function parseLoginLink(link: string): { url: string; token: string } {
  const m = /^(https?:\/\/[^?#]+?)\/auth\/login\/([A-Za-z0-9_-]{20,100})\/?$/.exec(link.trim());
  if (!m) throw new AlarmSessionError(both((w) => w.notALink(link)));
  return { url: m[1], token: m[2] };
}

/** Trades the link for an alarm session. A link that cannot sign in is an AlarmSessionError; an unreachable server throws as fetch does. */
export async function redeemLink(link: string): Promise<AlarmSession> {
  const { url, token } = parseLoginLink(link);
  const res = await fetch(`${url}/auth/login/${token}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ device: 'alarm' }), redirect: 'manual',
  });
  const body = await res.json().catch(() => null) as { userId?: string; guildId?: string; error?: string } | null;
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => /^[^=]+=./.test(c));
  if (res.status === 200 && body?.userId && body.guildId && cookie) return { url, cookie, guildId: body.guildId, userId: body.userId };
  if (res.status >= 500) throw new Error(`the server answered ${res.status}${body?.error ? ` (${body.error})` : ''}`);
  throw new AlarmSessionError(both((w) => w.linkRefused(res.status, body?.error ?? null)));
}

export type SessionCheck = { ok: true; guild: string; nickname: string } | { ok: false; problem: Text };

/**
 * Asks the server whether the session still signs in (`GET /auth/session`, which also counts as
 * use) and its user is still a member of the guild; with the guild's name and the user's nickname
 * there. An unreachable server or a 5xx throws.
 */
export async function checkSession(s: AlarmSession): Promise<SessionCheck> {
  const res = await fetch(`${s.url}/auth/session`, { headers: { cookie: s.cookie } });
  if (res.status === 401) return { ok: false, problem: sessionEnded(s) };
  if (res.status !== 200) throw new Error(`GET /auth/session answered ${res.status}`);
  const { guilds } = await res.json() as { guilds: { guildId: string; name: string; nickname: string }[] };
  const g = guilds.find((x) => x.guildId === s.guildId);
  return g ? { ok: true, guild: g.name, nickname: g.nickname } : { ok: false, problem: both((w) => w.notMember(s.userId, s.guildId)) };
}

/** Ends the session on the server (POST /auth/logout). */
export async function logout(s: AlarmSession): Promise<void> {
  const res = await fetch(`${s.url}/auth/logout`, { method: 'POST', headers: { cookie: s.cookie } });
  if (res.status !== 200) throw new Error(`POST /auth/logout answered ${res.status}`);
}

export function readSavedSession(file: string): AlarmSession | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const s = JSON.parse(text) as Partial<AlarmSession>;
  if (typeof s.url !== 'string' || typeof s.cookie !== 'string' || typeof s.guildId !== 'string' || typeof s.userId !== 'string') {
    throw new AlarmSessionError(both((w) => w.notSaved(file)));
  }
  return { url: s.url, cookie: s.cookie, guildId: s.guildId, userId: s.userId };
}

/** Writes the session (mode 600, in a directory of mode 700 when it is made here). */
export function saveSession(file: string, s: AlarmSession): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomically(file, `${JSON.stringify(s, null, 2)}\n`);
}

export function forgetSession(file: string): void {
  rmSync(file, { force: true });
}

export interface OpenSessionOptions {
  /** A one-time login link; optional when `stateFile` holds a session. */
  link?: string;
  stateFile: string;
  /** Progress for the user: the server cannot be reached yet, a used link falls back to the saved session (English, and in both languages). */
  notice(text: string, both: Text, kind: 'unreachable' | 'link-used'): void;
  /** Wait before attempt `n` to reach the server again. */
  retryDelayMs(attempt: number): number;
  /** Gives up waiting for the server (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * The session to watch with. A link that still signs in makes a new session, saved in place of
 * the old one (which is logged out). A used or expired link, or none, continues the saved session
 * of the same server. A session that no longer signs in is forgotten and an AlarmSessionError says
 * how to get a new link. While the server cannot be reached, tries again with back-off.
 */
export async function openAlarmSession(opts: OpenSessionOptions): Promise<AlarmSession & { guild: string; nickname: string }> {
  const saved = readSavedSession(opts.stateFile);
  const url = opts.link ? parseLoginLink(opts.link).url : saved?.url;
  if (!url) throw new AlarmSessionError(both((w) => w.noSavedStart(opts.stateFile)));
  const reusable = saved?.url === url ? saved : null;
  const reach = <T>(fn: () => Promise<T>) => untilReachable(url, fn, opts);
  let session: AlarmSession | null = null;
  if (opts.link) {
    try {
      session = await reach(() => redeemLink(opts.link!));
    } catch (err) {
      if (!(err instanceof AlarmSessionError) || !reusable) throw err;
      const text = both((w) => w.linkUsedKeepSaved(opts.stateFile));
      opts.notice(text.en, text, 'link-used');
    }
    if (session) {
      saveSession(opts.stateFile, session);
      if (saved && saved.cookie !== session.cookie) await logout(saved).catch(() => {}); // the old session is of no more use
    }
  }
  session ??= reusable!;
  const check = await reach(() => checkSession(session));
  if (!check.ok) {
    forgetSession(opts.stateFile);
    throw new AlarmSessionError(check.problem);
  }
  return { ...session, guild: check.guild, nickname: check.nickname };
}

/** Runs `fn` until the server answers it: an AlarmSessionError is the answer too; other failures are retried. */
async function untilReachable<T>(url: string, fn: () => Promise<T>, opts: Pick<OpenSessionOptions, 'notice' | 'retryDelayMs' | 'signal'>): Promise<T> {
  let said = '';
  for (let attempt = 0; ; attempt++) {
    opts.signal?.throwIfAborted();
    try {
      return await abortable(fn(), opts.signal);
    } catch (err) {
      opts.signal?.throwIfAborted();
      if (err instanceof AlarmSessionError) throw err;
      const why = describeFetchError(err);
      if (why !== said) {
        const text = both((w) => w.cannotReach(url, why));
        opts.notice(text.en, text, 'unreachable');
      }
      said = why;
      await sleep(opts.retryDelayMs(Math.min(attempt, 6)), undefined, { signal: opts.signal });
    }
  }
}

/** `p`, or the signal's reason as soon as it aborts (a request to a host that does not answer is not waited for). */
function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function describeFetchError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message ?? String(err);
}
