/**
 * The floor of `bench alarm`: bare uWebSockets.js pushing a text over a WebSocket to a page that
 * puts it in the DOM, with no tRPC, no database and no board. `GET /` is the page (a plain
 * WebSocket to `/ws`, each message replaces `#out`'s text); `GET /trigger?text=…` publishes the
 * text to every page, then answers 204. Reports `{port}` on stdout.
 */
import uWS from '../../server/transport/uws.ts';
import { report, stopOnSignalOrOrphan } from '../lib/child.ts';

const page = `<!doctype html><meta charset="utf-8"><title>floor</title><p id="out">-</p><script>
const ws = new WebSocket('ws://' + location.host + '/ws');
ws.onopen = () => { document.body.dataset.live = '1'; };
ws.onmessage = (e) => { document.getElementById('out').textContent = e.data; };
</script>`;

const app = uWS.App();
app.ws('/ws', { open: (ws) => void ws.subscribe('all') });
app.get('/', (res) => {
  res.writeStatus('200 OK').writeHeader('content-type', 'text/html; charset=utf-8').end(page);
});
app.get('/trigger', (res, req) => {
  app.publish('all', decodeURIComponent(req.getQuery('text') ?? ''));
  res.writeStatus('204 No Content').end();
});
app.any('/*', (res) => {
  res.writeStatus('404 Not Found').end('');
});
app.listen('127.0.0.1', 0, (token) => {
  if (!token) throw new Error('alarm floor: cannot listen');
  report({ port: uWS.us_socket_local_port(token) });
  stopOnSignalOrOrphan(() => uWS.us_listen_socket_close(token));
});
