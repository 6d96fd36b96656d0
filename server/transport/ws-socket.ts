import type uWS from 'uWebSockets.js';
import type { Credentials } from '../auth/principal.ts';
import type { Context } from '../trpc/context.ts';

/** What the /trpc endpoint keeps per socket. */
export interface SocketData {
  cookie?: string;
  /** The client's address (see ws-pending.ts `clientAddress`), for the caps of unauthenticated sockets. */
  address: string;
  /** The URL asked for a connectionParams frame first (`?connectionParams=1`). */
  wantsParams: boolean;
  open: boolean;
  /** What every call authenticates with; unset until the connectionParams frame when the URL asked for one. */
  credentials?: Credentials;
  /** The first authentication, started when the credentials arrived; calls wait for it. */
  connecting?: Promise<unknown>;
  /** `k:`/`s:` + hash of the first principal the socket proved: counted against that credential's sockets, closed when it is revoked. */
  principalKey?: string;
  /** The last context with a principal: used while the database cannot say whether the credential still holds. */
  lastCtx?: Context;
  /** The last authentication failed because the database did not answer (said when the socket is closed unauthenticated). */
  dbUnavailable?: boolean;
  subs: Map<string, AbortController>;
  window: { start: number; count: number };
}

export type Socket = uWS.WebSocket<SocketData>;

/**
 * Closes the socket once, with a reason. Codes: 1007 frame not UTF-8, 1008 policy (limits), 1009
 * frame too big, 1012 restart, 4401 credential revoked or expired, 4408 not authenticated in time.
 */
export function closeWith(ws: Socket, code: number, reason: string) {
  const d = ws.getUserData();
  if (!d.open) return;
  d.open = false;
  ws.end(code, reason);
}
