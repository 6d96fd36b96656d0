import t from 'tap';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestServer, call } from '../helpers/server.ts';

const bin = fileURLToPath(new URL('../../server/bin/dispatch-terminal.mjs', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const server = await startTestServer(t);
const env = { ...process.env, DATABASE_URL: await databaseUrlOf(server), PUBLIC_URL: server.url, LOG_LEVEL: 'warn' };

function cli(args: string[], viaNpx = false): Promise<{ code: number; stdout: string; stderr: string }> {
  const [cmd, argv] = viaNpx ? ['npx', ['dispatch-terminal', ...args]] : [process.execPath, [bin, ...args]];
  return new Promise((resolve) => {
    execFile(cmd, argv, { env, cwd: root, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as any).code ?? 1) : 0, stdout, stderr: stderr.split('\n').filter((l) => !l.startsWith('npm warn')).join('\n') });
    });
  });
}

async function databaseUrlOf(s: typeof server): Promise<string> {
  const [row] = await s.sql`select current_database() as db`;
  return process.env.TEST_ADMIN_DATABASE_URL!.replace(/\/[^/?]*(\?|$)/, `/${row.db}$1`);
}

t.test('guild, person, key and login link through the CLI, used against the running server', async (t) => {
  const guild = await cli(['guild', 'create', '--id', '777000000000000001', '--name', 'Feuerwehr Nord']);
  t.equal(guild.code, 0, guild.stderr);
  const dup = await cli(['guild', 'create', '--id', '777000000000000001', '--name', 'again']);
  t.equal(dup.code, 1);
  t.match(dup.stderr, /exists already/);

  const person = await cli(['person', 'add', '--guild', '777000000000000001', '--user', '900', '--nickname', 'Ole', '--badge', '7', '--admin']);
  t.equal(person.code, 0, person.stderr);
  t.match(person.stdout, /badge 07/);
  const sameBadge = await cli(['person', 'add', '--guild', '777000000000000001', '--user', '901', '--nickname', 'Eve', '--badge', '07']);
  t.equal(sameBadge.code, 1, '07 is the same badge as 7');
  const badRank = await cli(['person', 'add', '--guild', '777000000000000001', '--user', '902', '--nickname', 'Eve', '--badge', '8', '--rank', 'nope']);
  t.equal(badRank.code, 1);
  t.match(badRank.stderr, /unknown rank nope/);

  const key = await cli(['key', 'create', '--guild', '777000000000000001', '--name', 'tablet']);
  t.equal(key.code, 0, key.stderr);
  t.match(key.stdout, /^stmp_[0-9A-Za-z]{36}\n$/, 'prints only the key');
  const clock = await call(server.url, 'POST', '/api/v1/admin/clock-in', { key: key.stdout.trim(), body: { badge: 7 } });
  t.equal(clock.status, 200, 'the running server accepts a key the CLI made');
  t.equal(clock.body.nickname, 'Ole');

  const scoped = await cli(['key', 'create', '--guild', '777000000000000001', '--name', 'game', '--scopes', 'calls:call.report,timeclock:shift.ingame_clock']);
  t.match(scoped.stdout, /^stmp_sc_[0-9A-Za-z]{36}\n$/);
  const badScope = await cli(['key', 'create', '--guild', '777000000000000001', '--name', 'x', '--scopes', 'calls:everything']);
  t.equal(badScope.code, 1);
  t.match(badScope.stderr, /unknown scope calls:everything/);

  const link = await cli(['login-link', '--guild', '777000000000000001', '--user', '900']);
  t.equal(link.code, 0, link.stderr);
  t.match(link.stdout, new RegExp(`^${server.url}/auth/login/[A-Za-z0-9_-]{43}\\n$`), 'prints only the URL');
  const login = await call(server.url, 'GET', new URL(link.stdout.trim()).pathname);
  t.equal(login.status, 302);
  t.match(login.headers.get('set-cookie'), /dt_session=/);
  const stranger = await cli(['login-link', '--guild', '777000000000000001', '--user', 'nobody']);
  t.equal(stranger.code, 1);
});

t.test('usage errors are one clear line and exit 1', async (t) => {
  for (const args of [['guild', 'create', '--id', 'x'], ['frobnicate'], ['key', 'create', '--guild', 'nope', '--name', 'k'], ['person', 'add', '--guild', 'g', '--user', 'u', '--nickname', 'n', '--badge', '-1']]) {
    const res = await cli(args);
    t.equal(res.code, 1, args.join(' '));
    t.match(res.stderr, /^error: /, args.join(' '));
    t.notMatch(res.stderr, /\n\s+at /, 'no stack trace');
  }
});

t.test('npx dispatch-terminal runs the same CLI', async (t) => {
  const res = await cli(['migrate'], true);
  t.equal(res.code, 0, res.stderr);
  t.match(res.stdout, /migrations up to date/);
});
