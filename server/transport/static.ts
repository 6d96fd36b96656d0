import type uWS from 'uWebSockets.js';
import { Reply } from './http.ts';

/** `/` opens the board (served at `/dispatch` by the board procedure); HEAD says so too, without a body. */
export function mountRootRedirect(app: uWS.TemplatedApp): void {
  app.get('/', (res) => new Reply(res).send(302, { location: '/dispatch' }, ''));
  app.head('/', (res) => new Reply(res, true).send(302, { location: '/dispatch' }, ''));
}
