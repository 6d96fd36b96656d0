import { isIP } from 'node:net';

export interface PendingLimits {
  /** A pending socket is closed (`onExpired`) this long after it opened. */
  timeoutMs: number;
  /** Pending sockets on this node at once (over it: 503 at the upgrade). */
  max: number;
  /** Pending sockets of one client address at once (over it: 429 at the upgrade). */
  perAddress: number;
}

export interface Refusal { status: 429 | 503; message: string }

/**
 * Sockets that have not yet proved a principal ("pending"): an open socket costs a file descriptor
 * and memory before it has shown any right to them, so they are few and short-lived. Each gets a
 * deadline when it opens; authenticating (`settle`) or closing frees its slot. The caps are checked
 * at the upgrade, before a socket exists, so a flood is refused with an HTTP answer and its
 * connections closed: file descriptors stay bounded and the rest of the server keeps answering.
 */
export function createPendingSockets<S>(limits: PendingLimits, onExpired: (socket: S) => void) {
  const pending = new Map<S, { address: string; timer: NodeJS.Timeout }>();
  const byAddress = new Map<string, number>();
  const seconds = Math.ceil(limits.timeoutMs / 1000);

  return {
    /** Why one more pending socket from `address` must be refused now, or null to let it in. */
    refusal(address: string): Refusal | null {
      if ((byAddress.get(address) ?? 0) >= limits.perAddress) {
        return { status: 429, message: `at most ${limits.perAddress} unauthenticated WebSockets from this address at once: authenticate within ${seconds} s or close one` };
      }
      if (pending.size >= limits.max) {
        return { status: 503, message: `at most ${limits.max} unauthenticated WebSockets on this server at once: try again in a few seconds` };
      }
      return null;
    },
    /** `socket` opened without a principal: it holds a slot of `address` until `settle`, or until its deadline closes it. */
    add(socket: S, address: string) {
      byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
      const timer = setTimeout(() => onExpired(socket), limits.timeoutMs);
      timer.unref(); // a stopping server need not wait for it
      pending.set(socket, { address, timer });
    },
    /** `socket` authenticated or closed: its slot is free. Does nothing for a socket not pending. */
    settle(socket: S) {
      const entry = pending.get(socket);
      if (!entry) return;
      pending.delete(socket);
      clearTimeout(entry.timer);
      const n = byAddress.get(entry.address)! - 1;
      if (n > 0) byAddress.set(entry.address, n);
      else byAddress.delete(entry.address);
    },
    get size() {
      return pending.size;
    },
    /** The deadline in whole seconds, for messages. */
    seconds,
  };
}

/**
 * The client's address. A connection from a trusted reverse proxy speaks for someone else: its
 * X-Forwarded-For names the hops, each proxy appending the address it saw, so the nearest entry
 * that is not itself a trusted proxy is the client (entries further left are the client's own
 * say). From anyone else the header is ignored: it is whatever the client chose to write.
 */
export function clientAddress(peer: string, forwardedFor: string, trusted: ReadonlySet<string>): string {
  const direct = canonicalIp(peer);
  if (!trusted.has(direct) || !forwardedFor) return direct;
  const hops = forwardedFor.split(',').map(canonicalIp).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted.has(hops[i])) return hops[i];
  return hops[0] ?? direct;
}

/** One spelling per address: IPv6 compressed and lower-case, IPv4-mapped IPv6 as IPv4 (uWS writes IPv6 in full). */
export function canonicalIp(raw: string): string {
  const a = raw.trim();
  if (isIP(a) !== 6) return a;
  const host = new URL(`http://[${a}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return host;
  const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}
