/**
 * The bin never runs a stale build: in a copy of the checkout (its own dist/, this node_modules),
 * a missing build, a changed source and another package version each make it build first, with
 * one line on stderr saying why; a fresh build, or a source only touched, runs as it is. Without
 * the sources (a production install) it runs the build it has, and refuses one of another version.
 * The production board has no test hook; the test build has it.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { root } from '../../server/build-check.mjs';

/** Everything the build reads: the checkout's top level without its dependencies, output, tests and benchmarks. */
const left = new Set(['node_modules', 'dist', 'data', 'test', 'bench', '.git', '.tap', 'deploy']);

const copy = mkdtempSync(join(tmpdir(), 'dt-fresh-'));
t.teardown(() => rmSync(copy, { recursive: true, force: true }));
for (const entry of readdirSync(root)) if (!left.has(entry)) cpSync(join(root, entry), join(copy, entry), { recursive: true });
symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));

const bin = join(copy, 'server/bin/dispatch-terminal.mjs');
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: copy, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const built = (stderr: string) => /^building the server and the board into dist\/ \((.*)\)$/m.exec(stderr)?.[1] ?? null;
const setVersion = (version: string) => {
  const pkg = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'));
  writeFileSync(join(copy, 'package.json'), `${JSON.stringify({ ...pkg, version }, null, 2)}\n`);
};

t.test('a stale build is rebuilt before it runs; a fresh one is not', async (t) => {
  let r = cli('--help');
  t.equal(r.status, 0, 'runs');
  t.match(r.stdout, /usage: dispatch-terminal/, 'the CLI answered');
  t.equal(built(r.stderr), 'there is no build yet', 'no build: built first');

  r = cli('--help');
  t.equal(built(r.stderr), null, 'fresh: not built again');
  t.equal(r.stderr, '', 'and nothing said');

  const source = join(copy, 'server/core/text.ts');
  const later = new Date(Date.now() + 60_000);
  utimesSync(source, later, later);
  t.equal(built(cli('--help').stderr), null, 'a source only touched (same content): not built again');

  appendFileSync(source, '\n// changed\n');
  r = cli('--help');
  t.equal(built(r.stderr), 'server/core/text.ts changed', 'a changed source: built first');
  t.equal(r.status, 0, 'and runs');

  appendFileSync(join(copy, 'board/src/styles.css'), '\n/* changed */\n');
  t.equal(built(cli('--help').stderr), 'board/src/styles.css changed', 'a changed board source: built first');

  setVersion('9.9.9');
  t.equal(built(cli('--help').stderr), 'the build is of version 0.1.0, the package is 9.9.9', 'another version: built first');

  rmSync(join(copy, 'dist/server/cli.js'));
  t.equal(built(cli('--help').stderr), "the build's file server/cli.js is missing", 'a file of the build gone: built first');
});

t.test('without the sources (a production install) the build runs as it is, or says why it cannot', async (t) => {
  rmSync(join(copy, 'server/cli.ts'));
  let r = cli('--help');
  t.equal(r.status, 0, 'runs');
  t.match(r.stdout, /usage: dispatch-terminal/, 'from dist/');
  t.equal(r.stderr, '', 'nothing built, nothing said');

  setVersion('10.0.0');
  r = cli('--help');
  t.equal(r.status, 1, 'refused');
  t.match(r.stderr, /^error: the compiled server in .*dist cannot be used: the build is of version 9\.9\.9, the package is 10\.0\.0\. Build it where the sources and dev dependencies are \(npm ci && npm run build\)/);
  t.equal(r.stdout, '', 'nothing ran');
});

t.test('the production board has no test hook; the test build has it', async (t) => {
  const board = JSON.parse(readFileSync(join(copy, 'dist/build.json'), 'utf8')).board;
  t.notOk(readFileSync(join(copy, 'dist', board.dir, board.js), 'utf8').includes('dtBoard'), 'dist/board: no window.dtBoard');
  const r = spawnSync(process.execPath, [join(copy, 'server/build.mjs'), '--board-test'], { cwd: copy, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  t.equal(r.status, 0, `test build ${r.stderr}`);
  const test = JSON.parse(readFileSync(join(copy, 'dist/board-test/build.json'), 'utf8')).board;
  t.ok(readFileSync(join(copy, 'dist/board-test', test.js), 'utf8').includes('dtBoard'), 'dist/board-test: window.dtBoard');
});
