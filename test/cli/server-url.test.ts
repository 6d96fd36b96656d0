import t from 'tap';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import { insertPerson } from '../../server/domains/people/store.ts';
import { freePort } from '../../server/store/embedded.ts';
import { freshDatabase } from '../helpers/db.ts';

const bin = fileURLToPath(new URL('../../server/bin/dispatch-terminal.mjs', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const db = await freshDatabase();
t.teardown(() => db.drop());
await insertGuild(db.sql, '777000000000000002', 'Wache Süd');
await insertPerson(db.sql, '777000000000000002', { userId: '901', nickname: 'Ada', badge: '01', rankId: null, isAdmin: true });
const dataDir = mkdtempSync(join(tmpdir(), 'dt-server-url-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const recordFile = join(dataDir, 'server.json');

/** Server and CLI share DATA_DIR and DATABASE_URL; neither gets PORT or PUBLIC_URL unless a test says so. */
function envWith(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO: '0', ...extra };
  for (const name of ['PORT', 'HOST', 'PUBLIC_URL']) if (!(name in extra)) delete env[name];
  return env;
}

function cli(args: string[], extra: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: envWith(extra), cwd: root, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as any).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const loginLink = (extra?: Record<string, string>) => cli(['login-link', '--guild', '777000000000000002', '--user', '901'], extra);

t.test('the CLI links to the port the running server listens on; PUBLIC_URL wins; a stale record is ignored', async (t) => {
  const port = await freePort();
  t.not(port, 3000);
  const server = spawn(process.execPath, [bin, 'serve'], { env: envWith({ PORT: String(port) }), cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => server.kill('SIGKILL'));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (d) => {
      out += d;
      const found = /listening on (\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    server.once('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
  });
  t.equal(url, `http://127.0.0.1:${port}`);
  t.same(JSON.parse(readFileSync(recordFile, 'utf8')), { pid: server.pid, publicUrl: url }, 'the server recorded itself in DATA_DIR/server.json');
  t.equal(statSync(recordFile).mode & 0o777, 0o600);

  const link = await loginLink();
  t.equal(link.code, 0, link.stderr);
  t.match(link.stdout, new RegExp(`^http://127\\.0\\.0\\.1:${port}/auth/login/[A-Za-z0-9_-]{43}\\n$`), 'login-link without PORT uses the running server\'s port');
  const login = await fetch(link.stdout.trim(), { redirect: 'manual' });
  t.equal(login.status, 302, 'and the link works');
  t.match(login.headers.get('set-cookie'), /dt_session=/);

  const demo = await cli(['demo']);
  t.equal(demo.code, 0, demo.stderr);
  t.match(demo.stdout, new RegExp(`One-time login link \\(15 min\\): http://127\\.0\\.0\\.1:${port}/auth/login/`), 'so does demo');

  const fixed = await loginLink({ PUBLIC_URL: 'https://dispatch.example.org' });
  t.match(fixed.stdout, /^https:\/\/dispatch\.example\.org\/auth\/login\//, 'an explicit PUBLIC_URL wins');

  const code = await new Promise((resolve) => {
    server.once('exit', resolve);
    server.kill('SIGINT');
  });
  t.equal(code, 0);
  t.notOk(existsSync(recordFile), 'a clean shutdown removes the record');

  const gone = spawnSync(process.execPath, ['-e', '']).pid; // a process that has exited
  writeFileSync(recordFile, JSON.stringify({ pid: gone, publicUrl: url }));
  const stale = await loginLink();
  t.match(stale.stdout, /^http:\/\/127\.0\.0\.1:3000\/auth\/login\//, 'a record whose process is gone is ignored');
});
