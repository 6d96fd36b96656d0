import net from 'node:net';

/** One statement a client executed, as the PostgreSQL wire protocol carried it. */
export interface WireStatement {
  /** The connection's `application_name` (the server's pool: `dispatch-terminal`; its transactions: `dispatch-terminal/tx`). */
  app: string;
  /** The connection's number, in the order the proxy accepted them. */
  conn: number;
  text: string;
}

export interface WireCounter {
  /** `postgres://` URL of the proxy: `databaseUrl` with the proxy's host and port. */
  url: string;
  /** Every statement executed through the proxy so far (Execute and simple Query messages), in arrival order. */
  statements: WireStatement[];
  /** Round trips so far: client sends that followed an answer of the server on the same connection. */
  roundTrips: number;
  /** The connection of each round trip, in order (`roundTrips` entries): lets a test count one request's trips apart from timers on other connections. */
  tripConnections: number[];
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of PostgreSQL that reads what clients send: it counts the statements a
 * server really executes (each Execute of the extended protocol, each simple Query) and the round
 * trips it waits for, without a switch in the server. Statement texts come from the Parse messages
 * (postgres.js prepares each query once per connection and binds it by name afterwards).
 * Plain TCP only: postgres.js asks for no TLS on a `postgres://` URL without `sslmode`.
 */
export async function startWireCounter(databaseUrl: string): Promise<WireCounter> {
  const target = new URL(databaseUrl);
  const counter = { statements: [] as WireStatement[], roundTrips: 0, tripConnections: [] as number[] };
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const proxy = net.createServer((client) => {
    const conn = ++connections;
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const state = { app: '', started: false, buffer: Buffer.alloc(0), named: new Map<string, string>(), bound: '', serverSpoke: false };
    client.on('data', (chunk) => {
      if (state.started && state.serverSpoke) {
        counter.roundTrips++;
        counter.tripConnections.push(conn);
      }
      state.serverSpoke = false;
      state.buffer = Buffer.concat([state.buffer, chunk]);
      readMessages(state, (text) => counter.statements.push({ app: state.app, conn, text }));
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      state.serverSpoke = true;
      client.write(chunk);
    });
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((proxy.address() as net.AddressInfo).port);
  return Object.assign(counter, {
    url: url.toString(),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  });
}

interface ReadState { app: string; started: boolean; buffer: Buffer; named: Map<string, string>; bound: string }

/** Takes whole frontend messages off `state.buffer`; calls `executed` for each statement run. */
function readMessages(state: ReadState, executed: (text: string) => void): void {
  for (;;) {
    if (!state.started) {
      // Untyped: the startup message (or an SSL/GSS request before it): int32 length, int32 code.
      if (state.buffer.length < 8) return;
      const length = state.buffer.readInt32BE(0);
      if (state.buffer.length < length) return;
      const code = state.buffer.readInt32BE(4);
      if (code === 196608) {
        const params = state.buffer.subarray(8, length).toString('utf8').split('\0');
        const at = params.indexOf('application_name');
        state.app = at >= 0 ? params[at + 1] : '';
        state.started = true;
      }
      state.buffer = state.buffer.subarray(length);
      continue;
    }
    if (state.buffer.length < 5) return;
    const type = String.fromCharCode(state.buffer[0]);
    const length = state.buffer.readInt32BE(1);
    if (state.buffer.length < 1 + length) return;
    const body = state.buffer.subarray(5, 1 + length);
    state.buffer = state.buffer.subarray(1 + length);
    if (type === 'P') {
      const [name, text] = body.toString('utf8').split('\0');
      state.named.set(name, text);
    } else if (type === 'B') {
      const statement = body.toString('utf8').split('\0')[1];
      state.bound = state.named.get(statement) ?? `(prepared ${statement})`;
    } else if (type === 'E') {
      executed(state.bound);
    } else if (type === 'Q') {
      executed(body.toString('utf8').replace(/\0$/, ''));
    }
  }
}
