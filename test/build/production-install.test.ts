/**
 * A production install runs the compiled product with only the production dependencies: the
 * built dist/, package.json, package-lock.json, sql/, server/bin and server/build-check.mjs (what
 * the Dockerfile copies) in a directory of their own, node_modules pruned with `npm prune
 * --omit=dev` (offline, from hard links to this checkout's node_modules, which stays untouched).
 * npm keeps typescript and @types/ws, @types/node (peers and dependencies of @trpc/* and
 * discord.js): they are removed by hand too, to show the server needs none of them.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { ensureBuilt, readManifest, root, targets } from '../../server/build-check.mjs';
import { spawnListening } from '../helpers/serve-process.ts';

const devOnly = ['tsx', 'esbuild', 'preact', '@preact/signals'];

/**
 * `app` with the built product, package.json, the lock, sql/ and the bin (what the Dockerfile copies)
 * plus `extra` paths of the checkout, node_modules pruned to the production dependencies. Returns
 * the manifest of the build.
 */
async function pruneInstall(t: Test, app: string, extra: string[]) {
  const manifest = await ensureBuilt(targets.product, (line) => t.comment(line));
  chmodSync(app, 0o755); // the embedded PostgreSQL runs as the postgres user when root runs the tests: it must reach its binaries
  t.teardown(() => rmSync(app, { recursive: true, force: true }));
  for (const f of ['package.json', 'package-lock.json', 'sql', 'server/bin/dispatch-terminal.mjs', 'server/build-check.mjs', ...extra]) cpSync(join(root, f), join(app, f), { recursive: true });
  for (const f of [...manifest.files, 'build.json']) cpSync(join(root, 'dist', f), join(app, 'dist', f));

  // Hard links: fast, and npm only unlinks (removing a link leaves this checkout's file); its own
  // lock file in node_modules is copied, since npm rewrites it.
  const modules = realpathSync(join(root, 'node_modules'));
  const cp = spawnSync('cp', ['-al', modules, join(app, 'node_modules')]);
  t.equal(cp.status, 0, `node_modules linked ${cp.stderr}`);
  rmSync(join(app, 'node_modules/.package-lock.json'), { force: true });
  cpSync(join(modules, '.package-lock.json'), join(app, 'node_modules/.package-lock.json'));
  const prune = spawnSync('npm', ['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  t.equal(prune.status, 0, `npm prune --omit=dev: ${prune.stderr.slice(-2000)}`);
  for (const name of devOnly) t.notOk(existsSync(join(app, 'node_modules', name)), `${name} is not installed (a dev dependency)`);
  for (const name of ['typescript', '@types']) rmSync(join(app, 'node_modules', name), { recursive: true, force: true });
  return manifest;
}

t.test('npm prune --omit=dev, then serve: health, the board page and its assets, without tsx, esbuild, preact or types', async (t) => {
  const app = mkdtempSync(join(tmpdir(), 'dt-production-'));
  const manifest = await pruneInstall(t, app, []);
  await serveBuilt(t, app, manifest);
});

t.test('npm prune --omit=dev in a checkout (sources present): the build still runs, nothing is rebuilt', async (t) => {
  const app = mkdtempSync(join(tmpdir(), 'dt-pruned-checkout-'));
  const built = readManifest(targets.product) ?? (await ensureBuilt(targets.product, (line) => t.comment(line)));
  const sources = Object.keys(built.inputs).filter((path) => !path.startsWith('node_modules/'));
  const manifest = await pruneInstall(t, app, [...new Set([...sources, 'server/cli.ts'])]);
  await serveBuilt(t, app, manifest);
});

async function serveBuilt(t: Test, app: string, manifest: { files: string[]; board: { js: string; css: string } }) {
  const dataDir = join(app, 'data');
  mkdirSync(dataDir);
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DEMO: '0', PUBLIC_URL: '', LOG_LEVEL: 'info', NODE_OPTIONS: '' };
  delete env.DISCORD_TOKEN;
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const { url, child, exited, output } = await spawnListening(t, process.execPath, [join(app, 'server/bin/dispatch-terminal.mjs'), 'serve'], { cwd: app, env });

  t.equal((await fetch(`${url}/api/v1/health`)).status, 200, 'health 200');
  const page = await fetch(`${url}/dispatch`);
  t.equal(page.status, 200, 'board page 200');
  const html = await page.text();
  const js = /src="\/dispatch\/assets\/(app-[0-9a-f]+\.js)"/.exec(html)?.[1];
  const css = /href="\/dispatch\/assets\/(app-[0-9a-f]+\.css)"/.exec(html)?.[1];
  t.equal(js, manifest.board.js, 'the page names the built script');
  t.equal(css, manifest.board.css, 'the page names the built style sheet');
  const script = await fetch(`${url}/dispatch/assets/${js}`, { headers: { 'accept-encoding': 'gzip' } });
  t.equal(script.status, 200, 'script 200');
  t.equal(script.headers.get('content-encoding'), 'gzip', 'served gzip');
  // The entry module and the chunks it imports statically (the page preloads them) are the board.
  const preloaded = [...html.matchAll(/rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
  const body = [await script.text(), ...await Promise.all(preloaded.map(async (p) => (await fetch(`${url}${p}`)).text()))].join('');
  t.ok(body.length > 10_000, 'the script is the board');
  t.notOk(body.includes('dtBoard'), 'the production board has no test hook');
  t.equal((await fetch(`${url}/dispatch/assets/${css}`)).status, 200, 'style sheet 200');
  t.notOk(/building/.test(output()), 'nothing was built in the production install');

  child.kill('SIGTERM');
  t.equal(await exited, 0, 'stops cleanly on SIGTERM');
}
