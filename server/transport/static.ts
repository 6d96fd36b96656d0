import type uWS from 'uWebSockets.js';
import { boardBundle } from '../domains/board/bundle.ts';
import { Reply } from './http.ts';

/** `/` opens the board (served at `/dispatch` by the board procedure); HEAD says so too, without a body. */
export function mountRootRedirect(app: uWS.TemplatedApp): void {
  app.get('/', (res) => new Reply(res).send(302, { location: '/dispatch' }, ''));
  app.head('/', (res) => new Reply(res, true).send(302, { location: '/dispatch' }, ''));
}

/**
 * The board's script and style under `/dispatch/assets/<name>-<hash>.<ext>`: immutable (a new
 * build has new names), gzip when the browser takes it, 404 for any other name.
 */
export function mountBoardAssets(app: uWS.TemplatedApp): void {
  const door = (head: boolean) => (res: uWS.HttpResponse, req: uWS.HttpRequest) => {
    const name = req.getParameter(0) ?? '';
    const gzip = /\bgzip\b/.test(req.getHeader('accept-encoding'));
    const reply = new Reply(res, head);
    void (async () => {
      if (!(await reply.ready())) return;
      let bundle;
      try {
        bundle = await boardBundle();
      } catch {
        return reply.error({ code: 'INTERNAL_SERVER_ERROR', message: 'the board could not be built; see the server log' });
      }
      const asset = bundle.byName.get(name);
      if (!asset) return reply.error({ code: 'NOT_FOUND', message: `no board asset ${name}` });
      reply.send(200, {
        'content-type': asset.contentType, 'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff', vary: 'accept-encoding',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      }, gzip ? asset.gzip : asset.body);
    })();
  };
  app.get('/dispatch/assets/:name', door(false));
  app.head('/dispatch/assets/:name', door(true));
}
