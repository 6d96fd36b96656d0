/**
 * The WebSocket of a hand-rolled benchmark board: a raw TCP socket, the upgrade, then what tRPC's
 * wsLink sends — a connectionParams frame with the API key and one subscription. Text frames go to
 * `onText` as bounds into the received bytes (no copy, no JSON.parse); pings are answered, close
 * frames and socket errors reported. Shared by raw-board.ts and positions-board.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect as tcpConnect } from 'node:net';
import { clientFrame, eachFrame } from './ws-frames.ts';

export interface RawSocketOptions {
  port: number;
  apiKey: string;
  /** The subscription's params: `{ path, input: { json } }`. */
  subscription: { path: string; input: { json: unknown } };
  onText(data: Buffer, from: number, to: number): void;
  onProblem(what: string): void;
  /** The server refused the upgrade (the socket is destroyed). */
  onRefused(): void;
  /** The socket closed, by the server or by `close()`. */
  onClosed(byServer: boolean): void;
}

const HTTP_END = Buffer.from('\r\n\r\n');

export function openRawSocket(o: RawSocketOptions): { close(): void } {
  const wsKey = randomBytes(16).toString('base64');
  const accept = createHash('sha1').update(`${wsKey}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  let upgraded = false;
  let stopping = false;
  let pending: Buffer | null = null;

  const onFrames = (data: Buffer) => {
    const s = eachFrame(data, data.length, (opcode, from, to) => {
      if (opcode === 1) o.onText(data, from, to);
      else if (opcode === 9) socket.write(clientFrame(0xa, Buffer.from(data.subarray(from, to)))); // ping → pong
      else if (opcode === 8) o.onProblem(`close frame ${to - from >= 2 ? data.readUInt16BE(from) : ''} ${data.toString('utf8', from + 2, to)}`);
    });
    pending = s < data.length ? Buffer.from(data.subarray(s)) : null;
  };

  const socket = tcpConnect({ host: '127.0.0.1', port: o.port, noDelay: true });
  socket.on('connect', () => {
    socket.write(`GET /trpc?connectionParams=1 HTTP/1.1\r\nHost: 127.0.0.1:${o.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`
      + `Sec-WebSocket-Key: ${wsKey}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  });
  socket.on('data', (chunk: Buffer) => {
    const data = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
    if (upgraded) return onFrames(data);
    const headEnd = data.indexOf(HTTP_END);
    if (headEnd < 0) {
      pending = data;
      return;
    }
    const head = data.toString('latin1', 0, headEnd);
    if (!head.startsWith('HTTP/1.1 101') || !head.includes(accept)) {
      o.onProblem(`upgrade refused: ${head.split('\r\n')[0]}`);
      socket.destroy();
      o.onRefused();
      return;
    }
    upgraded = true;
    socket.write(Buffer.concat([
      clientFrame(0x1, Buffer.from(JSON.stringify({ method: 'connectionParams', data: { authorization: `Bearer ${o.apiKey}` } }))),
      clientFrame(0x1, Buffer.from(JSON.stringify({ id: 1, method: 'subscription', params: o.subscription }))),
    ]));
    if (headEnd + 4 < data.length) onFrames(data.subarray(headEnd + 4));
  });
  socket.on('error', (err) => o.onProblem(`socket error: ${err.message}`));
  socket.on('close', () => o.onClosed(!stopping));

  return {
    close() {
      stopping = true;
      socket.destroy();
    },
  };
}
