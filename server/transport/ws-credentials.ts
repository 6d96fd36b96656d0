import { AppError } from '../core/errors.ts';
import type { Deps } from '../deps.ts';
import type { Credentials, Principal } from '../auth/principal.ts';
import { validCredentials } from '../auth/store.ts';
import { createContext, type Context } from '../trpc/context.ts';
import { closeWith, type Socket } from './ws-socket.ts';

// Origin was checked at the upgrade; frames are JSON.
const FRAME_FACTS = { crossSite: false, jsonBody: true };

/**
 * Who each socket is, and that it still may be. Every call (query, mutation, subscribe) authenticates
 * the socket's credentials again through the authenticator's per-node cache (5 s; a hit costs a hash
 * and a map look-up, no database round trip), so a revoked key or ended session is refused within
 * seconds on every node even while the bus is down, and rank changes apply to the next call. A call
 * that finds the credential gone is answered 401 and the credential's sockets closed 4401. Sockets
 * that only listen are closed by the bus's invalidations, by a recheck of every open credential right
 * after the bus reconnects (invalidations may have been lost meanwhile), and by the periodic one.
 */
export function createSocketCredentials(deps: Deps, onAuthenticated: (ws: Socket) => void) {
  const { limits } = deps.config;
  const byPrincipal = new Map<string, Set<Socket>>();

  const offInvalidate = deps.bus.onInvalidate((inv) => {
    if (inv.kind !== 'guild') closeAll(`${inv.kind === 'apiKey' ? 'k' : 's'}:${inv.id}`, 'credential revoked');
  });
  const offResync = deps.bus.onResync(() => void recheck());
  // An expired session, or a key deleted while the bus was down, closes even a silent socket; open boards keep their session alive.
  const timer = setInterval(() => void recheck(), limits.wsRevalidateMs);
  timer.unref();

  function closeAll(key: string, reason: string) {
    for (const ws of [...(byPrincipal.get(key) ?? [])]) closeWith(ws, 4401, reason);
  }

  async function recheck() {
    const keys = [...byPrincipal.keys()];
    if (!keys.length) return;
    const hashes = (prefix: string) => keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(2));
    try {
      const valid = await validCredentials(deps.sql, hashes('k:'), hashes('s:'));
      for (const key of keys) if (!valid.has(key)) closeAll(key, 'credential expired or revoked');
    } catch (err) {
      deps.log.warn('socket credential check failed', { error: String(err) });
    }
  }

  /** The first principal the socket proves is its own for good, counted against the credential's sockets. */
  function register(ws: Socket, p: Principal) {
    const d = ws.getUserData();
    const key = p.kind === 'key' ? `k:${p.keyHash}` : `s:${p.sessionHash}`;
    const set = byPrincipal.get(key) ?? new Set();
    if (set.size >= limits.wsSocketsPerPrincipal) return closeWith(ws, 1008, `too many sockets for this credential (max ${limits.wsSocketsPerPrincipal})`);
    set.add(ws);
    byPrincipal.set(key, set);
    d.principalKey = key;
    onAuthenticated(ws);
  }

  /**
   * The socket's context now. While the database cannot say (it does not answer), a socket keeps
   * the last rights it proved, as open boards keep watching through an outage; a socket that never
   * proved any gets the 503 to answer with.
   */
  async function authenticate(ws: Socket): Promise<Context> {
    const d = ws.getUserData();
    let ctx: Context;
    try {
      ctx = await createContext(deps, d.credentials!, FRAME_FACTS);
    } catch (err) {
      if (!d.lastCtx) throw err;
      deps.log.warn('socket credential check failed; keeping the last rights', { error: String(err) });
      return d.lastCtx;
    }
    const { auth } = ctx;
    d.dbUnavailable = auth.principal === null && auth.failure?.code === 'SERVICE_UNAVAILABLE';
    if (auth.principal) {
      if (!d.principalKey && d.open) register(ws, auth.principal);
      d.lastCtx = ctx;
    } else if (d.dbUnavailable && d.lastCtx) {
      return d.lastCtx;
    } else if (d.principalKey && auth.failure?.code === 'UNAUTHORIZED') {
      throw new CredentialRevoked();
    }
    return ctx;
  }

  return {
    /** The socket's credentials arrived (at open, or in its connectionParams frame): authenticate now, before any call. */
    connect(ws: Socket, credentials: Credentials) {
      const d = ws.getUserData();
      d.credentials = credentials;
      d.connecting = authenticate(ws).catch((err) => deps.log.warn('socket authentication failed', { error: String(err) }));
    },
    /** The context of one call; throws `CredentialRevoked` when the credential the socket proved is gone. */
    async callContext(ws: Socket): Promise<Context> {
      const d = ws.getUserData();
      if (!d.credentials) throw new AppError('UNAUTHORIZED', 'connectionParams expected first');
      await d.connecting;
      return authenticate(ws);
    },
    /** A call found the socket's credential revoked: every socket of it on this node is closed 4401 (after that call's answer). */
    revoked(ws: Socket) {
      const key = ws.getUserData().principalKey;
      if (key) closeAll(key, 'credential expired or revoked');
    },
    closed(ws: Socket) {
      const key = ws.getUserData().principalKey;
      const set = key ? byPrincipal.get(key) : undefined;
      set?.delete(ws);
      if (set?.size === 0) byPrincipal.delete(key!);
    },
    get count() {
      return byPrincipal.size;
    },
    stop() {
      clearInterval(timer);
      offInvalidate();
      offResync();
    },
  };
}

/** A socket's call found the credential it authenticated with deleted, logged out or expired. */
export class CredentialRevoked extends AppError {
  constructor() {
    super('UNAUTHORIZED', 'credential expired or revoked: sign in again or use a valid API key');
  }
}
