import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  url: string;
  port: number;
  /** Where connections go from now on (a restarted server's port). */
  target: number;
  /**
   * true: new connections are closed at once, as by a server that refuses them (a PostgreSQL in a
   * smart shutdown: the sessions it has keep working); false: let through again.
   */
  refuseNew: boolean;
  /** Connections the proxy carries now. */
  readonly open: number;
  /** Cuts every connection at once, as a broken network or a dead router does: both ends see it close. */
  cut(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay on 127.0.0.1 in front of a server: the browser talks to the proxy, so a test can cut
 * the network under an open board, or move it to a restarted server, without touching either.
 */
export async function tcpProxy(target: number): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    if (proxy.refuseNew) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: proxy.target });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const proxy: TcpProxy = {
    url: `http://127.0.0.1:${port}`,
    port,
    target,
    refuseNew: false,
    get open() {
      return pairs.size;
    },
    cut() {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      pairs.clear();
    },
    close() {
      proxy.cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
