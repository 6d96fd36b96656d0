import t from 'tap';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, startTestServer } from '../helpers/server.ts';
import { scopedKey, seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';

// The package as a user gets it: built, packed, installed from the tarball into an empty project,
// used with plain `node` (import and require, no tsx) against the real server, and type-checked
// as a consumer by the repository's tsc.
const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const work = mkdtempSync(join(tmpdir(), 'dt-sdk-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

/** The environment without npm's own variables (npm test sets npm_config_local_prefix & co., which would point a child npm at the repository). */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

// The package's build runs tsc over the SDK and the server types it reaches: on a box running the
// suite's other files beside it, that took over a minute once (killed at 60 s, with no output).
t.setTimeout(10 * 60_000);

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}, timeout = 240_000) {
  return new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(cmd, args, { cwd, env: { ...cleanEnv, ...env }, timeout, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      const killed = error && error.killed ? `killed after ${timeout} ms (${error.signal})\n` : '';
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: String(stdout), err: killed + String(stderr) });
    });
  });
}

const G = '730000000000000001';
const server = await startTestServer(t);
await seedGuild(server.sql, G, [{ userId: '310000000000000001', nickname: 'Ida', badge: '7', rank: 'crew' }]);
const key = await unscopedKey(server.sql, G);
const gameKey = await scopedKey(server.sql, G, ['calls:call.report']);

const stage = join(work, 'stage');
const app = join(work, 'app');
let tarball = '';

t.test('build and npm pack: dist and README only, nothing of server/', async (t) => {
  const built = await run(process.execPath, [join(root, 'client-sdk/build.mjs'), '--out', join(stage, 'dist')], root);
  t.equal(built.code, 0, built.err || built.out);
  copyFileSync(join(root, 'client-sdk/package.json'), join(stage, 'package.json'));
  copyFileSync(join(root, 'client-sdk/README.md'), join(stage, 'README.md'));
  const packed = await run('npm', ['pack', stage, '--ignore-scripts', '--json', '--pack-destination', work], work);
  t.equal(packed.code, 0, packed.err);
  const [info] = JSON.parse(packed.out) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, info.filename);
  const files = info.files.map((f) => f.path).sort();
  t.ok(files.every((f) => f === 'package.json' || f === 'README.md' || f.startsWith('dist/')), files.join(' '));
  for (const entry of ['index', 'live', 'alarm', 'game', 'medic']) {
    for (const ext of ['js', 'cjs', 'd.ts', 'd.cts']) t.ok(files.includes(`dist/${entry}.${ext}`), `dist/${entry}.${ext}`);
  }
  t.ok(files.includes('dist/router.d.ts'), 'the router types ship as a declaration');
  t.notOk(files.some((f) => /\.ts$/.test(f) && !/\.d\.c?ts$/.test(f)), 'no TypeScript sources');
});

t.test('npm install of the tarball into an empty project', async (t) => {
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  const flags = ['--no-audit', '--no-fund', '--prefix', app];
  // From npm's cache when it holds the dependencies; else the registry fills it (once).
  let res = await run('npm', ['install', tarball, '--offline', ...flags], app);
  if (res.code !== 0) res = await run('npm', ['install', tarball, '--prefer-offline', ...flags], app, {}, 60_000);
  t.equal(res.code, 0, res.err);
});

const esm = `
import WebSocket from 'ws';
import { createDispatchClient, httpStatusOf } from '@dispatch-terminal/client';
import { createLiveBoard } from '@dispatch-terminal/client/live';
import { redeemLink, checkSession } from '@dispatch-terminal/client/alarm';
import { createGameBridge, DispatchError } from '@dispatch-terminal/client/game';
import * as medic from '@dispatch-terminal/client/medic';
const { DT_URL: url, DT_KEY: apiKey, DT_GAME_KEY: gameKey, DT_LINK: link } = process.env;
const out = {};
const dt = createDispatchClient({ baseUrl: url, apiKey });
const status = await dt.timeclock.clockStatus.query({ badge: 7 });
out.query = { badge: status.badgeNumber, sinceIsDate: status.since instanceof Date };
out.notFound = await dt.timeclock.clockStatus.query({ badge: 99 }).then(() => 0, httpStatusOf);
const game = createGameBridge({ baseUrl: url, apiKey: gameKey });
out.report = (await game.reportCall({ externalId: 'esm-1', title: 'Brand im Hafen' })).status;
out.forbidden = await game.listCalls().then(() => 0, (e) => e instanceof DispatchError && e.status);
out.live = await new Promise((resolve, reject) => {
  const board = createLiveBoard({ url, apiKey, topics: ['calls'], WebSocket, onError: reject,
    onChange: (state) => { if (JSON.stringify(state.topics.calls ?? {}).includes('esm-1')) { board.close(); resolve(state.seq); } } });
});
const session = await redeemLink(link);
out.alarm = await checkSession(session);
out.medic = typeof medic.createMedicSync;
console.log(JSON.stringify(out));
`;

// A FiveM resource: game.cjs and medic.cjs copied next to it (no node_modules anywhere above), no global fetch.
const resource = `
delete globalThis.fetch; // like FiveM's Node 16: the game bridge falls back to node:http
const { createGameBridge } = require('./dt-client/game.cjs');
const medic = require('./dt-client/medic.cjs');
const { DT_URL: url, DT_GAME_KEY: gameKey } = process.env;
(async () => {
  const out = {};
  const game = createGameBridge({ baseUrl: url, apiKey: gameKey });
  out.report = (await game.reportCall({ externalId: 'cjs-1', title: 'Unfall' })).externalId;
  const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'dt-medic-'));
  const sync = medic.createMedicSync({ baseUrl: url, apiKey: process.env.DT_KEY, dir, log: () => {} });
  sync.enqueue({ type: 'patient_admitted', citizenId: 'PKG-1', at: Date.now(), name: 'Ida Paket' });
  out.medicFlushed = await sync.flush(10000);
  await sync.stop();
  require('node:fs').rmSync(dir, { recursive: true, force: true });
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`;

const cjsTyped = `
const { createDispatchClient } = require('@dispatch-terminal/client');
require('@dispatch-terminal/client/alarm');
require('@dispatch-terminal/client/game');
require('@dispatch-terminal/client/medic');
const { createLiveBoard } = require('@dispatch-terminal/client/live');
const WebSocket = require('ws');
const { DT_URL: url, DT_KEY: apiKey } = process.env;
(async () => {
  const out = {};
  out.health = await createDispatchClient({ baseUrl: url, apiKey }).health.check.query();
  out.live = await new Promise((resolve, reject) => {
    const board = createLiveBoard({ url, apiKey, topics: ['calls'], WebSocket, onError: reject,
      onChange: (state) => { if (JSON.stringify(state.topics.calls ?? {}).includes('cjs-1')) { board.close(); resolve(true); } } });
  });
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`;

t.test('plain node: every entry imported (ESM) and required (CJS); game and medic as files of a FiveM resource', async (t) => {
  const env = { DT_URL: server.url, DT_KEY: key, DT_GAME_KEY: gameKey, DT_LINK: await createLoginLink(server.sql, server.url, G, '310000000000000001') };
  writeFileSync(join(app, 'esm.mjs'), esm);
  const res = join(work, 'resource');
  mkdirSync(join(res, 'dt-client'), { recursive: true });
  for (const f of ['game.cjs', 'medic.cjs']) copyFileSync(join(app, 'node_modules/@dispatch-terminal/client/dist', f), join(res, 'dt-client', f));
  writeFileSync(join(res, 'server.js'), resource);
  writeFileSync(join(res, 'package.json'), '{"type":"commonjs"}'); // whatever may lie above the temp dir
  writeFileSync(join(app, 'client.cjs'), cjsTyped);
  const a = await run(process.execPath, ['esm.mjs'], app, env, 30_000);
  t.equal(a.code, 0, a.err);
  t.match(JSON.parse(a.out), {
    query: { badge: '07', sinceIsDate: true }, notFound: 404, report: 'open', forbidden: 403, live: Number,
    alarm: { ok: true, nickname: 'Ida' }, medic: 'function',
  });
  const b = await run(process.execPath, ['server.js'], res, env, 30_000);
  t.equal(b.code, 0, b.err);
  t.same(JSON.parse(b.out), { report: 'cjs-1', medicFlushed: true }, 'game.cjs and medic.cjs alone, without global fetch');
  const patients = await call(server.url, 'GET', '/api/v1/medic/patients?q=PKG-1', { key });
  t.match(patients.body, { patients: [{ citizenId: 'PKG-1', name: 'Ida Paket', status: 'open' }] }, 'the queue delivered the event');
  const c = await run(process.execPath, ['client.cjs'], app, env, 30_000);
  t.equal(c.code, 0, c.err);
  t.same(JSON.parse(c.out), { health: { ok: true }, live: true });
});

const consumer = `
import { createDispatchClient, type RouterInputs } from '@dispatch-terminal/client';
import { createGameBridge } from '@dispatch-terminal/client/game';
import { createLiveBoard, type Topic } from '@dispatch-terminal/client/live';
import { createMedicSync } from '@dispatch-terminal/client/medic';

const dt = createDispatchClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'stmp_x' });
export async function typed(): Promise<void> {
  const shift = await dt.timeclock.clockIn.mutate({ badge: 7 });
  const at: Date = shift.clockInAt;
  const badge: string | null = shift.badgeNumber;
  // @ts-expect-error a badge is a number or a digit string, not a boolean
  await dt.timeclock.clockIn.mutate({ badge: true });
  // @ts-expect-error the answer has no such field
  void shift.noSuchField;
  const report: RouterInputs['calls']['report'] = { externalId: 'c-1', title: 'Unfall' };
  const game = createGameBridge({ baseUrl: 'http://127.0.0.1:1', apiKey: 'stmp_x' });
  const call = await game.reportCall(report);
  const created: string = call.createdAt; // JSON: an ISO string
  // @ts-expect-error title is required
  await game.reportCall({ externalId: 'c-2' });
  // @ts-expect-error not a topic
  const wrong: Topic[] = ['nope'];
  void [at, badge, created, wrong, createLiveBoard, createMedicSync];
}
`;

const consumerCjs = `
import game = require('@dispatch-terminal/client/game');
import sdk = require('@dispatch-terminal/client');
const bridge = game.createGameBridge({ baseUrl: 'http://127.0.0.1:1', apiKey: 'stmp_x' });
export async function typed(): Promise<void> {
  const s = await bridge.clockStatus(7);
  const clockedIn: boolean = s.clockedIn;
  // @ts-expect-error setUnitStatus needs a status
  await bridge.setUnitStatus(7);
  const dt = sdk.createDispatchClient({ baseUrl: 'http://127.0.0.1:1' });
  // @ts-expect-error clockOut takes { badge }
  await dt.timeclock.clockOut.mutate({ who: 7 });
  void clockedIn;
}
`;

t.test('tsc in the consumer sees the real input and output types (ESM and CJS)', async (t) => {
  const options = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: [], lib: ['ESNext', 'DOM'] };
  writeFileSync(join(app, 'consumer.mts'), consumer);
  writeFileSync(join(app, 'consumer.cts'), consumerCjs);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['consumer.mts', 'consumer.cts'] }));
  const good = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
  t.equal(good.code, 0, `${good.out}${good.err}`);
  // Without its @ts-expect-error the wrong call is an error: the types are not any.
  writeFileSync(join(app, 'bad.mts'), consumer.replace('// @ts-expect-error a badge', '// a badge'));
  writeFileSync(join(app, 'tsconfig.bad.json'), JSON.stringify({ compilerOptions: options, files: ['bad.mts'] }));
  const bad = await run(process.execPath, [tsc, '-p', 'tsconfig.bad.json'], app);
  t.not(bad.code, 0);
  t.match(bad.out, /bad\.mts\(\d+,\d+\): error TS2322: Type 'boolean' is not assignable to type 'string \| number'/);
  t.equal(bad.out.trim().split('\n').filter((l) => l.includes('error TS')).length, 1, 'that is the only error');
});
