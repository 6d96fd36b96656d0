import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../server/store/embedded.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { freshDatabase } from '../helpers/db.ts';
import { call } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { until } from '../helpers/live.ts';

const bin = fileURLToPath(new URL('../../server/bin/dispatch-terminal.mjs', import.meta.url));
const G = '660000000000000001';
const dir = mkdtempSync(join(tmpdir(), 'dt-alarm-'));
const stateFile = join(dir, 'state', 'alarm.json');
const calls = join(dir, 'player-calls.txt');

// The player: records its arguments and keeps a copy of the tone it was given.
const player = join(dir, 'player.sh');
writeFileSync(player, `#!/bin/sh\ncp "$1" '${join(dir, 'played.wav')}'\necho "$@" >> '${calls}'\n`);
chmodSync(player, 0o755);

// The real server as its own process on a fixed port, so it can be killed and started again where the client expects it.
const db = await freshDatabase();
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
let server: ChildProcess | null = null;
async function startServer() {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: { ...process.env, DATABASE_URL: db.url, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', DEMO: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  server = child;
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
  });
}
async function killServer() {
  const child = server!;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}
await startServer();
t.teardown(async () => {
  if (server?.exitCode === null && server.signalCode === null) await killServer();
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

await seedGuild(db.sql, G, [{ userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew' }]);
const key = await unscopedKey(db.sql, G);
for (const callsign of ['RTW-1', 'RTW-2']) await call(url, 'POST', '/units', { key, body: { callsign } });
const setStatus = async (callsign: string, status: string) => {
  const res = await call(url, 'PUT', `/units/${callsign}/status`, { key, body: { status } });
  if (res.status !== 200) throw new Error(`status ${callsign} ${status}: ${res.status} ${res.text}`);
};
const rings = () => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n').length : 0);

/** The real CLI; it gets a DATABASE_URL that leads nowhere, to show the alarm client needs none. */
function alarmClient(args: string[]) {
  const child = spawn(process.execPath, [bin, 'alarm', ...args, '--lang', 'en', '--no-speech'], {
    env: { ...process.env, DATABASE_URL: 'postgres://127.0.0.1:9/nowhere', LOG_LEVEL: 'warn' },
  });
  const c = { out: '', err: '', code: undefined as number | null | undefined };
  child.stdout.on('data', (d) => (c.out += d));
  child.stderr.on('data', (d) => (c.err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve((c.code = code))));
  t.teardown(() => {
    if (c.code === undefined) child.kill('SIGKILL');
  });
  const count = (re: RegExp) => (c.out.match(new RegExp(re, 'gm')) ?? []).length;
  return Object.assign(c, {
    child, exited, count,
    /** Waits until `re` is in the output `n` times. */
    waitFor: (re: RegExp, n = 1, ms = 20_000) => until(() => count(re) >= n || c.code !== undefined, `${re} ×${n} in:\n${c.out}${c.err}`, ms)
      .then(() => { if (count(re) < n) throw new Error(`exited ${c.code} before ${re}:\n${c.out}${c.err}`); }),
  });
}

const ALARM_1 = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}ALARM {2}RTW-1$/;

t.test('alarm <link>: prints the callsign and calls the player for every unit that enters alarm, also after the server was killed and started again', async (t) => {
  const link = await createLoginLink(db.sql, url, G, 'u1');
  const a = alarmClient([link, '--player', player, '--state', stateFile]);
  await a.waitFor(/connected to http:\/\/127\.0\.0\.1/);
  t.match(a.out, /signed in as Anna Alpha in Guild 660000000000000001 \(guild 660000000000000001\)/);
  t.match(a.out, new RegExp(`alarm tone through ${player}`));
  t.equal(rings(), 0, 'nothing in alarm: no tone at the start');

  await setStatus('RTW-1', '0');
  await a.waitFor(ALARM_1);
  await until(() => rings() === 1, 'the player was called', 5000);
  t.match(readFileSync(calls, 'utf8'), /^\S+\/alarm\.wav\n$/, 'with the tone file as its argument');
  const wav = readFileSync(join(dir, 'played.wav'));
  t.equal(wav.subarray(0, 4).toString(), 'RIFF', 'a WAV file');
  t.ok(wav.length > 16_000, 'about a second of sound');

  await setStatus('RTW-2', '3');
  await setStatus('RTW-1', '2');
  await setStatus('RTW-1', '0');
  await a.waitFor(ALARM_1, 2);
  await until(() => rings() === 2, 'the player was called again', 5000);
  t.equal(a.count(/ALARM {2}RTW-2$/), 0, 'a status without alarm does not ring');

  const saved = JSON.parse(readFileSync(stateFile, 'utf8'));
  t.match(saved, { url, guildId: G, userId: 'u1', cookie: /^dt_session=[A-Za-z0-9_-]{22,}$/ });
  t.equal(statSync(stateFile).mode & 0o777, 0o600, 'the session file is readable by its owner only');

  await setStatus('RTW-1', '2');
  await killServer();
  await a.waitFor(/connection lost \(1006\); reconnecting$/);
  await startServer();
  await a.waitFor(/connected again$/);
  await setStatus('RTW-1', '0');
  await a.waitFor(ALARM_1, 3);
  await until(() => rings() === 3, 'a ring after the restart', 5000);

  a.child.kill('SIGTERM');
  t.equal(await a.exited, 0, 'SIGTERM ends it cleanly');
  t.equal(a.count(ALARM_1), 3, 'one line per entry into alarm, no more');
  t.equal(rings(), 3, 'one tone per entry into alarm, no more');
  t.equal(a.err, '');
});

t.test('a restart with the used link continues the saved session; logout ends the client with a clear message', async (t) => {
  const usedLink = await createLoginLink(db.sql, url, G, 'u1');
  await call(url, 'POST', new URL(usedLink).pathname, { body: { device: 'alarm' } });
  const a = alarmClient([usedLink, '--player', player, '--state', stateFile]);
  await a.waitFor(/connected to /);
  t.match(a.out, /the login link no longer signs in; continuing with the session saved in /);
  await a.waitFor(ALARM_1, 1);
  t.pass('a unit already in alarm at the start rings once');

  const { cookie } = JSON.parse(readFileSync(stateFile, 'utf8'));
  t.equal((await call(url, 'POST', '/auth/logout', { headers: { cookie } })).status, 200);
  t.equal(await a.exited, 1, 'exits 1');
  t.match(a.err, /^error: the session has ended \(signed out, revoked, or unused for more than a day\): get a new link with: npx dispatch-terminal login-link --guild 660000000000000001 --user u1\n$/);

  const again = alarmClient([usedLink, '--state', stateFile]);
  t.equal(await again.exited, 1, 'a dead saved session and a used link: exit 1');
  t.match(again.err, /error: the session has ended .*get a new link with: npx dispatch-terminal login-link --guild/);
  t.notOk(existsSync(stateFile), 'the dead session is forgotten');

  const used = alarmClient([usedLink, '--state', stateFile]);
  t.equal(await used.exited, 1);
  t.match(used.err, /error: login link refused \(410\): this login link was used already: get a new one with: npx dispatch-terminal login-link --guild 660000000000000001 --user u1/);
  const none = alarmClient(['--state', stateFile]);
  t.equal(await none.exited, 1);
  t.match(none.err, /error: no saved session in .*: start with a login link: npx dispatch-terminal alarm <login-link>/);
});

t.test('--logout ends the saved session on the server and forgets it', async (t) => {
  const a = alarmClient([await createLoginLink(db.sql, url, G, 'u1'), '--player', player, '--state', stateFile]);
  await a.waitFor(/connected to /);
  const { cookie } = JSON.parse(readFileSync(stateFile, 'utf8'));
  const out = alarmClient(['--logout', '--state', stateFile]);
  t.equal(await out.exited, 0, out.err);
  t.match(out.out, /signed out of http:\/\/127\.0\.0\.1:\d+; removed /);
  t.equal((await call(url, 'GET', '/auth/session', { headers: { cookie } })).status, 401, 'the session is over');
  t.equal(await a.exited, 1, 'the running client ends');
});
