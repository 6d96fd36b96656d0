import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { World } from './state.ts';

/** Gateway intents the stand-in filters events by (Discord's bits). */
export const Intent = { guilds: 1 << 0, guildMembers: 1 << 1, guildExpressions: 1 << 3, guildPresences: 1 << 8, guildMessages: 1 << 9, messageContent: 1 << 15 };
const PRIVILEGED = Intent.guildMembers | Intent.guildPresences | Intent.messageContent;

interface Dispatch { op: 0; t: string; s: number; d: unknown }

/** A gateway session: lives on across sockets until it is invalidated (RESUME picks it up again). */
interface Session {
  id: string;
  seq: number;
  intents: number;
  /** Dispatches sent in this session, for replay on RESUME (the last 1000). */
  sent: Dispatch[];
  socket: WebSocket | null;
  /** READY (or RESUMED) and the guilds went out on the current socket. */
  ready: boolean;
  invalid: boolean;
}

export interface GatewayOptions {
  /** HELLO's heartbeat_interval (Discord: 41250). */
  heartbeatIntervalMs: number;
  /** Privileged intents the application may use (others close with 4014 as in Discord). */
  privilegedIntents: number;
}

export class Gateway {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 15 * 1024 });
  private readonly sessions = new Map<string, Session>();
  private readonly bySocket = new Map<WebSocket, Session | null>();
  private readonly readyWaiters = new Set<() => void>();
  identifies = 0;
  resumes = 0;
  /** The last IDENTIFY's `d` (token removed): intents, properties, shard. */
  lastIdentify: Record<string, unknown> | null = null;
  /** Discord is down: upgrades are answered 503. */
  refusing = false;
  /** ws://127.0.0.1:P/gateway, set once the server listens. */
  url = '';

  constructor(private readonly world: World, private readonly opts: GatewayOptions) {}

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/gateway' && url.pathname !== '/gateway/') {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    if (this.refusing) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws, url.searchParams));
  }

  private onSocket(ws: WebSocket, params: URLSearchParams) {
    this.bySocket.set(ws, null);
    ws.on('error', () => {});
    ws.on('close', (code) => this.onClose(ws, code));
    if (params.get('v') !== '10') return ws.close(4012, 'Invalid API version.');
    if ((params.get('encoding') ?? 'json') !== 'json') return ws.close(4002, 'Error while decoding payload.');
    this.send(ws, { op: 10, d: { heartbeat_interval: this.opts.heartbeatIntervalMs, _trace: ['["stand-in-gateway"]'] }, s: null, t: null });
    ws.on('message', (raw, isBinary) => this.onMessage(ws, raw as Buffer, isBinary));
  }

  private send(ws: WebSocket, payload: unknown) {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(payload));
  }

  private onMessage(ws: WebSocket, raw: Buffer, isBinary: boolean) {
    let payload: { op?: number; d?: any };
    try {
      if (isBinary) throw new Error('binary');
      payload = JSON.parse(raw.toString('utf8'));
    } catch {
      return ws.close(4002, 'Error while decoding payload.');
    }
    const session = this.bySocket.get(ws) ?? null;
    switch (payload.op) {
      case 1:
        return this.send(ws, { op: 11, d: null, s: null, t: null });
      case 2:
        return this.identify(ws, payload.d ?? {});
      case 6:
        return this.resume(ws, payload.d ?? {});
      case 3: // presence update
      case 4: // voice state update
        if (!session) return ws.close(4003, 'Not authenticated.');
        return;
      case 8:
        if (!session) return ws.close(4003, 'Not authenticated.');
        return this.requestMembers(session, payload.d ?? {});
      default:
        if (!session) return ws.close(4003, 'Not authenticated.');
        return ws.close(4001, 'Unknown opcode.');
    }
  }

  private tokenOk(token: unknown) {
    return typeof token === 'string' && token.replace(/^Bot /, '') === this.world.botToken;
  }

  private identify(ws: WebSocket, d: any) {
    if (this.bySocket.get(ws)) return ws.close(4005, 'Already authenticated.');
    if (!this.tokenOk(d.token)) return ws.close(4004, 'Authentication failed.');
    if (d.shard !== undefined && !(Array.isArray(d.shard) && d.shard[0] === 0 && d.shard[1] === 1)) return ws.close(4010, 'Invalid shard.');
    if (!Number.isInteger(d.intents) || d.intents < 0) return ws.close(4013, 'Invalid intent(s).');
    if (d.intents & PRIVILEGED & ~this.opts.privilegedIntents) return ws.close(4014, 'Disallowed intent(s).');
    const { token: _token, ...rest } = d;
    this.lastIdentify = rest;
    this.identifies++;
    const session: Session = { id: randomBytes(16).toString('hex'), seq: 0, intents: d.intents, sent: [], socket: ws, ready: false, invalid: false };
    this.sessions.set(session.id, session);
    this.bySocket.set(ws, session);
    const guilds = [...this.world.guilds.values()];
    this.emit(session, 'READY', {
      v: 10, user: this.world.botUser(), guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id, session_type: 'normal', resume_gateway_url: this.url, shard: [0, 1],
      application: { id: this.world.applicationId, flags: 0 },
      user_settings: {}, relationships: [], private_channels: [], presences: [], guild_join_requests: [], geo_ordered_rtc_regions: [],
      auth: {}, _trace: ['["stand-in-gateway"]'],
    });
    for (const g of guilds) this.emit(session, 'GUILD_CREATE', this.world.guildCreatePayload(g));
    this.markReady(session);
  }

  private resume(ws: WebSocket, d: any) {
    if (this.bySocket.get(ws)) return ws.close(4005, 'Already authenticated.');
    if (!this.tokenOk(d.token)) return ws.close(4004, 'Authentication failed.');
    const session = this.sessions.get(String(d.session_id));
    if (!session || session.invalid) {
      this.send(ws, { op: 9, d: false, s: null, t: null });
      return;
    }
    const seq = Number(d.seq ?? 0);
    if (!Number.isInteger(seq) || seq > session.seq) return ws.close(4007, 'Invalid seq.');
    if (session.sent.length && seq < session.sent[0].s - 1) {
      // Missed more than the stand-in keeps: as Discord, the session cannot be resumed.
      session.invalid = true;
      this.send(ws, { op: 9, d: false, s: null, t: null });
      return;
    }
    if (session.socket && session.socket !== ws) {
      this.bySocket.delete(session.socket);
      session.socket.close(4000, 'Session resumed elsewhere.');
    }
    session.socket = ws;
    this.bySocket.set(ws, session);
    this.resumes++;
    for (const p of session.sent) if (p.s > seq) this.send(ws, p);
    this.emit(session, 'RESUMED', { _trace: ['["stand-in-gateway"]'] });
    this.markReady(session);
  }

  private requestMembers(session: Session, d: any) {
    const guild = this.world.guild(String(d.guild_id));
    if (!guild) return;
    const ids: string[] | null = d.user_ids ? [].concat(d.user_ids) : null;
    if (!ids && !(session.intents & Intent.guildMembers)) return session.socket?.close(4013, 'Invalid intent(s).');
    const query = String(d.query ?? '').toLowerCase();
    const limit = Number(d.limit ?? 0) || Infinity;
    const all = [...guild.members.keys(), this.world.botUserId];
    const found = (ids ? all.filter((id) => ids.includes(id)) : all.filter((id) => (guild.members.get(id)?.username ?? this.world.botUsername).toLowerCase().startsWith(query))).slice(0, limit);
    this.emit(session, 'GUILD_MEMBERS_CHUNK', {
      guild_id: guild.id, members: found.map((id) => this.world.memberPayload(guild, id)), chunk_index: 0, chunk_count: 1,
      not_found: ids ? ids.filter((id) => !found.includes(id)) : [], ...(d.nonce ? { nonce: d.nonce } : {}),
    });
  }

  private onClose(ws: WebSocket, code: number) {
    const session = this.bySocket.get(ws);
    this.bySocket.delete(ws);
    if (!session || session.socket !== ws) return;
    session.socket = null;
    session.ready = false;
    // A client's own close with 1000/1001 ends the session for good (Discord's rule); any other cut keeps it resumable.
    if (code === 1000 || code === 1001) session.invalid = true;
  }

  /** Sends (or, with the socket gone, keeps for RESUME) one dispatch in a session. */
  private emit(session: Session, t: string, d: unknown) {
    const payload: Dispatch = { op: 0, t, s: ++session.seq, d };
    session.sent.push(payload);
    if (session.sent.length > 1000) session.sent.shift();
    if (session.socket) this.send(session.socket, payload);
  }

  private markReady(session: Session) {
    session.ready = true;
    for (const wake of [...this.readyWaiters]) wake();
  }

  /**
   * A dispatch to every session that is connected or resumable (a resumable one gets it on
   * RESUME); with `intent`, only to sessions that asked for it, as Discord filters.
   */
  dispatch(t: string, d: unknown, intent?: number) {
    for (const session of this.sessions.values()) {
      if (session.invalid) continue;
      if (intent !== undefined && !(session.intents & intent)) continue;
      this.emit(session, t, d);
    }
  }

  /** Identified sessions with an open socket (for dispatches a test wants seen now). */
  liveSessions(): number {
    return [...this.sessions.values()].filter((s) => s.socket && s.ready).length;
  }

  openSockets(): number {
    return [...this.bySocket.keys()].filter((ws) => ws.readyState === ws.OPEN).length;
  }

  waitForReady(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (![...this.sessions.values()].some((s) => s.ready && s.socket && s.socket.readyState === s.socket.OPEN)) return false;
        clearTimeout(timer);
        this.readyWaiters.delete(wake);
        resolve();
        return true;
      };
      const wake = () => void check();
      const timer = setTimeout(() => {
        this.readyWaiters.delete(wake);
        reject(new Error(`discord stand-in: no gateway session became ready within ${ms} ms (identifies: ${this.identifies}, resumes: ${this.resumes}, open sockets: ${this.openSockets()})`));
      }, ms);
      if (!check()) this.readyWaiters.add(wake);
    });
  }

  /** Closes every socket: `code` as Discord would send it, or a dead connection (`terminate`). */
  dropAll(how: { code: number; reason: string } | 'terminate') {
    for (const ws of [...this.bySocket.keys()]) {
      const session = this.bySocket.get(ws);
      if (session && session.socket === ws) {
        session.socket = null;
        session.ready = false;
      }
      this.bySocket.delete(ws);
      if (how === 'terminate') ws.terminate();
      else ws.close(how.code, how.reason);
    }
  }

  /** Every session ends: a RESUME is answered with op 9 (d: false), the client identifies anew. */
  invalidateSessions() {
    for (const s of this.sessions.values()) s.invalid = true;
  }

  close() {
    this.dropAll('terminate');
    this.wss.close();
    for (const wake of [...this.readyWaiters]) wake();
  }
}
