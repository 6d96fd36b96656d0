/**
 * What the compiled product loads (recorded by test/helpers/record-imports.mjs, every module the
 * ES module loader resolves): an idle server without DISCORD_TOKEN and REDIS_URL loads neither
 * the Discord bot nor the Redis client, nor chart.js, nor any build tool; a CLI command that writes
 * one row loads none of those and not the server either. The server still draws a chart when asked
 * (the compiled chart worker), and nothing of it runs TypeScript.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { spawnListening } from '../helpers/serve-process.ts';
import { distDir, ensureBuilt, root, targets } from '../../server/build-check.mjs';

const bin = join(root, 'server/bin/dispatch-terminal.mjs');
const recorder = join(root, 'test/helpers/record-imports.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'dt-lazy-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

/** Packages the module URLs are in (`node_modules/<name>/` or `node_modules/@scope/<name>/`). */
function packagesIn(urls: string[]): Set<string> {
  const names = new Set<string>();
  for (const url of urls) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m) names.add(m[1]);
  }
  return names;
}
const recorded = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);
const never = ['tsx', 'esbuild', 'typescript', 'preact', '@preact/signals'];

function env(extra: Record<string, string>): Record<string, string | undefined> {
  const e: Record<string, string | undefined> = { ...process.env, PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: '', LOG_LEVEL: 'info', ...extra };
  delete e.DISCORD_TOKEN;
  delete e.REDIS_URL;
  delete e.DATABASE_URL;
  return e;
}

t.test('an idle server and the CLI load only what they use', async (t) => {
  await ensureBuilt(targets.product, (line) => t.comment(line));
  /** The chunk(s) of the server's composition root (startServer), which the CLI must not load. */
  const serverChunks = readdirSync(join(distDir, 'server')).filter((f) => f.endsWith('.js') && readFileSync(join(distDir, 'server', f), 'utf8').includes('async function startServer('));
  t.ok(serverChunks.length > 0, `startServer is in ${serverChunks.join(', ')}`);

  const dataDir = join(scratch, 'data');
  const serveImports = join(scratch, 'serve.txt');
  writeFileSync(serveImports, '');
  const { url, child, exited, output } = await spawnListening(t, process.execPath, ['--import', recorder, bin, 'serve'], {
    cwd: root, env: env({ DATA_DIR: dataDir, DEMO: '1', DT_RECORD_IMPORTS: serveImports }),
  });
  const key = /Unscoped API key \(shown once\): (\S+)/.exec(output())?.[1];
  t.ok(key, 'the demo guild was seeded');
  t.equal((await fetch(`${url}/api/v1/health`)).status, 200, 'health');
  t.equal((await fetch(`${url}/dispatch`)).status, 200, 'board page');

  const idle = recorded(serveImports);
  t.notOk(idle.some((u) => u.endsWith('.ts')), 'no TypeScript: the compiled server runs');
  const idlePackages = packagesIn(idle);
  for (const name of [...never, 'discord.js', '@discordjs/rest', '@redis/client', 'chart.js']) t.notOk(idlePackages.has(name), `the idle server did not load ${name}`);

  const chart = await fetch(`${url}/api/v1/stats/leaderboard/chart/bars.png`, { headers: { authorization: `Bearer ${key}` } });
  t.equal(chart.status, 200, 'a chart is drawn (by the compiled chart worker)');
  t.equal(chart.headers.get('content-type'), 'image/png');
  t.same([...new Uint8Array(await chart.arrayBuffer()).slice(1, 4)], [0x50, 0x4e, 0x47], 'PNG bytes');

  const commands: [string, string[]][] = [
    ['login-link', ['login-link', '--guild', '100000000000000001', '--user', '200000000000000001']],
    ['key create', ['key', 'create', '--guild', '100000000000000001', '--name', 'lazy']],
  ];
  for (const [name, args] of commands) {
    const file = join(scratch, `${name.replace(' ', '-')}.txt`);
    writeFileSync(file, '');
    const r = spawnSync(process.execPath, ['--import', recorder, bin, ...args], { cwd: root, encoding: 'utf8', env: env({ DATA_DIR: dataDir, DT_RECORD_IMPORTS: file }) });
    t.equal(r.status, 0, `${name} ran ${r.stderr}`);
    t.match(r.stdout, name === 'login-link' ? /^http:\/\/\S+\/auth\/login\/\S+\n$/ : /^\S+\n$/, `${name} printed its one line`);
    const urls = recorded(file);
    t.notOk(urls.some((u) => u.endsWith('.ts')), `${name}: no TypeScript`);
    t.notOk(urls.some((u) => serverChunks.some((c) => u.endsWith(`/dist/server/${c}`))), `${name} did not load the server`);
    const packages = packagesIn(urls);
    for (const p of [...never, 'discord.js', '@discordjs/rest', '@redis/client', 'chart.js', '@napi-rs/canvas', 'busboy', 'uWebSockets.js', '@btc-vision/uwebsockets.js']) {
      t.notOk(packages.has(p), `${name} did not load ${p}`);
    }
  }

  child.kill('SIGTERM');
  await exited;
});
