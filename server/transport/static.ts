import type uWS from 'uWebSockets.js';
import { readFileSync } from 'node:fs';
import { Reply } from './http.ts';

const boardDir = new URL('../../board/', import.meta.url).pathname;

/** The web board at `GET /dispatch` (public HTML; its data needs a session). Read once at start. */
export function mountBoard(app: uWS.TemplatedApp): void {
  const html = readFileSync(boardDir + 'index.html');
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  };
  app.get('/dispatch', (res) => new Reply(res).send(200, headers, html));
  app.get('/', (res) => new Reply(res).send(302, { location: '/dispatch' }, ''));
}
