import uWS from '../../server/transport/uws.ts';
import { normalizeBadge } from '../../server/core/badge.ts';
import { report, stopOnSignalOrOrphan } from './child.ts';

/** What a reference target does for a clock route: true when it changed something (200), false for 409. */
export type ClockWrite = (badge: string) => Promise<boolean>;

/**
 * A bare uWebSockets.js reference target for the clock pairs: `POST /api/v1/admin/clock-in|out`
 * with `{ badge }` runs `write` and answers 200 or 409 with an empty body — no auth, no
 * validation, no tRPC, no bus. Reports its port; `stop` runs on SIGTERM or when the bench is gone.
 */
export function serveClockTarget(name: string, routes: { clockIn: ClockWrite; clockOut: ClockWrite }, stop: () => Promise<void>): void {
  const app = uWS.App();
  for (const [path, write] of [['/api/v1/admin/clock-in', routes.clockIn], ['/api/v1/admin/clock-out', routes.clockOut]] as const) {
    app.post(path, (res) => {
      let aborted = false;
      res.onAborted(() => {
        aborted = true;
      });
      const chunks: Buffer[] = [];
      res.onData((chunk, last) => {
        chunks.push(Buffer.from(chunk.slice(0)));
        if (!last) return;
        const { badge } = JSON.parse(Buffer.concat(chunks).toString()) as { badge: number };
        void write(normalizeBadge(badge)).then((changed) => {
          if (!aborted) res.cork(() => res.writeStatus(changed ? '200 OK' : '409 Conflict').end(''));
        });
      });
    });
  }
  app.listen('127.0.0.1', 0, (token) => {
    if (!token) throw new Error(`${name}: cannot listen`);
    report({ port: uWS.us_socket_local_port(token) });
    stopOnSignalOrOrphan(async () => {
      uWS.us_listen_socket_close(token);
      await stop();
    });
  });
}
