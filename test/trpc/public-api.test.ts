import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';

// The server uses tRPC through its public API: procedures are called through tRPC's caller
// (server/trpc/call.ts), not a re-implementation of its middleware chain; only the uWS WebSocket
// adapter (server/transport/ws*.ts) reaches into unstable-core-do-not-import, for message parsing.
// And no bench-only switch lives in production code.

const root = new URL('../../', import.meta.url).pathname;
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}
const server = sources('server').map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));

t.test("tRPC's internals are imported by the uWS WebSocket adapter only", async (t) => {
  t.ok(server.length > 100, `${server.length} server files read`);
  const internal = server.filter((f) => f.text.includes('@trpc/server/unstable-core-do-not-import')).map((f) => f.path);
  t.same(internal.filter((p) => !/^server\/transport\/ws(-[a-z]+)?\.ts$/.test(p)), [], 'no other file imports unstable-core-do-not-import');
  const chain = server.filter((f) => /middlewareMarker|_def\.middlewares|\bmiddlewares\b.*_type/.test(f.text)).map((f) => f.path);
  t.same(chain, [], "no file rebuilds tRPC's middleware chain");
});

t.test('the bench-only constantAnswers switch is not in the server', async (t) => {
  t.same(server.filter((f) => /constantAnswers/.test(f.text)).map((f) => f.path), []);
});
