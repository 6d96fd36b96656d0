import { createHash, timingSafeEqual } from 'node:crypto';
import type uWS from '../transport/uws.ts';
import { Reply } from '../transport/http.ts';
import type { Log } from '../core/log.ts';
import type { Metrics } from './metrics.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics (HEAD too: the same status and headers, no body) in Prometheus' text format, mounted only when METRICS_TOKEN is set (otherwise the
 * path is an unknown route, 404). It answers only `Authorization: Bearer <METRICS_TOKEN>`, compared
 * in constant time (of digests, so the length of the token tells nothing either); anything else
 * is 401 with `WWW-Authenticate: Bearer`. No guild and no session: a scraper is not a user.
 */
export function mountMetrics(app: uWS.TemplatedApp, metrics: Metrics, token: string | undefined, log: Log): void {
  if (!token) return;
  const expected = digest(`Bearer ${token}`);
  const door = (head: boolean) => (res: uWS.HttpResponse, req: uWS.HttpRequest) => {
    const reply = new Reply(res, head);
    if (!timingSafeEqual(digest(req.getHeader('authorization')), expected)) {
      return reply.json(401, { error: 'send "Authorization: Bearer <METRICS_TOKEN>" to read the metrics' }, { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    void (async () => {
      if (!(await reply.ready())) return;
      const text = await metrics.registry.metrics();
      reply.send(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }, text);
    })().catch((err: Error) => {
      log.error('collecting the metrics failed', { error: String(err), stack: err?.stack });
      reply.error({ code: 'INTERNAL_SERVER_ERROR', message: 'collecting the metrics failed; see the server log' });
    });
  };
  app.get('/metrics', door(false));
  app.head('/metrics', door(true));
}
