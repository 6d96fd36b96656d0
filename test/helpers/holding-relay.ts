import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A relay in front of Redis that can hold what a node sends (its commands) while Redis' answers
 * and messages still flow: a SUBSCRIBE sent while held reaches Redis only on release.
 */
export async function holdingRelay(t: { teardown(fn: () => unknown): void }, target: number) {
  const held: (() => void)[] = [];
  let holding = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    for (const s of [client, upstream]) sockets.add(s.on('error', () => {}).on('close', () => { client.destroy(); upstream.destroy(); }));
    client.on('data', (d) => (holding ? held.push(() => upstream.write(d)) : upstream.write(d)));
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `redis://127.0.0.1:${(server.address() as { port: number }).port}`,
    hold() { holding = true; },
    release() {
      holding = false;
      for (const send of held.splice(0)) send();
    },
  };
}
