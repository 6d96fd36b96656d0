/**
 * Reference for `GET /api/v1/health`: bare uWebSockets.js answering the same bytes
 * (status, content-type, body) with no routing table, tRPC or JSON work.
 */
import uWS from '../../server/transport/uws.ts';
import { report, stopOnSignalOrOrphan } from '../lib/child.ts';

const body = JSON.stringify({ ok: true });
const app = uWS.App();
app.get('/api/v1/health', (res) => {
  res.writeStatus('200 OK').writeHeader('content-type', 'application/json; charset=utf-8').end(body);
});
app.any('/*', (res) => {
  res.writeStatus('404 Not Found').end('');
});
app.listen('127.0.0.1', 0, (token) => {
  if (!token) throw new Error('bare uWS: cannot listen');
  report({ port: uWS.us_socket_local_port(token) });
  stopOnSignalOrOrphan(() => uWS.us_listen_socket_close(token));
});
