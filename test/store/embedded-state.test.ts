/**
 * The embedded cluster's state file and start lock (embedded-state.ts): what a process starting
 * the cluster relies on when another one (a server, a CLI command, one that was killed) got there
 * first.
 */
import t, { type Test } from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readState, withStartLock, writeState } from '../../server/store/embedded-state.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function dataDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'dt-embedded-state-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('the start lock lets one process decide at a time', async (t) => {
  const dir = dataDir(t);
  const steps: string[] = [];
  const decide = (name: string) => withStartLock(dir, async () => {
    steps.push(`${name} in`);
    await sleep(150);
    steps.push(`${name} out`);
  });
  await Promise.all([decide('a'), decide('b')]);
  t.same(steps, ['a in', 'a out', 'b in', 'b out'], 'the second waits for the first');
  t.notOk(existsSync(join(dir, 'embedded-postgres.lock')), 'and the lock is gone afterwards');
});

t.test('a lock of a process that is gone, or one left empty for over 5 s, is taken over at once', async (t) => {
  const dir = dataDir(t);
  const lock = join(dir, 'embedded-postgres.lock');
  for (const [left, content] of [['by a process that is gone', String(spawnSync(process.execPath, ['-e', '']).pid)], ['empty', '']]) {
    writeFileSync(lock, content);
    if (content === '') utimesSync(lock, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    const began = Date.now();
    t.equal(await withStartLock(dir, async () => 'decided', 10_000), 'decided', `a lock left ${left}`);
    t.ok(Date.now() - began < 1000, `is taken over without waiting (${Date.now() - began} ms)`);
  }
});

t.test('a lock held by a live process is waited for, then a clear failure', async (t) => {
  const dir = dataDir(t);
  const holder = spawn('sleep', ['30']);
  t.teardown(() => holder.kill());
  writeFileSync(join(dir, 'embedded-postgres.lock'), String(holder.pid));
  let ran = false;
  await t.rejects(withStartLock(dir, async () => (ran = true), 300), { name: 'EmbeddedPostgresError', message: /embedded-postgres\.lock has been held for over 0\.3 s by a process that is still running/ });
  t.notOk(ran, 'nothing ran under a lock it did not hold');
  t.ok(existsSync(join(dir, 'embedded-postgres.lock')), 'and the holder\'s lock is left alone');
});

t.test('the state file: written whole, mode 600; one that does not parse is waited for, then ignored for a new cluster and refused for an initialised one', async (t) => {
  const dir = dataDir(t);
  const file = join(dir, 'embedded-postgres.json');
  t.equal(await readState(dir, true), null, 'no file: no state');
  writeState(dir, { port: 5432, password: 'pw', owner: 1 });
  t.same(await readState(dir, true), { port: 5432, password: 'pw', owner: 1 });
  t.equal(statSync(file).mode & 0o777, 0o600);

  writeFileSync(file, '{"port": 54');
  setTimeout(() => writeState(dir, { port: 5433, password: 'pw' }), 300); // an older version finishing its write in place
  t.same(await readState(dir, true), { port: 5433, password: 'pw' }, 'a half-written file is read again until it is whole');

  writeFileSync(file, 'not json');
  t.equal(await readState(dir, false), null, 'for a cluster not initialised yet, a broken file is ignored (after 2 s)');
  await t.rejects(readState(dir, true), { name: 'EmbeddedPostgresError', message: /is not a valid state file \(it holds the embedded cluster's password\)/ }, 'for an initialised one it is a clear failure');
});
