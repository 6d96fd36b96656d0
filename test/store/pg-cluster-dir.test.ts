import t from 'tap';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { placeCluster, removeDataDir } from '../../server/store/pg-cluster-dir.ts';
import { postgresRunAs } from '../../server/store/pg-user.ts';
import { recordingLog } from '../helpers/faults.ts';

const runAs = await postgresRunAs();
const log = recordingLog();
const { lines } = log;
/** Stands for /var/lib/dispatch-terminal: a directory the postgres user can enter. */
const base = mkdtempSync(join(tmpdir(), 'dt-cluster-base-'));
chmodSync(base, 0o755);
/** Stands for /root: closed to everyone else. */
const home = mkdtempSync(join(tmpdir(), 'dt-cluster-home-'));
t.teardown(() => {
  rmSync(base, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});
const hashOf = (dir: string) => createHash('sha256').update(realpathSync(dir)).digest('hex').slice(0, 16);
/** A DATA_DIR as startEmbeddedPostgres prepares it (755, so the postgres user may enter it if its parents let it). */
const dataDir = (parent: string, name: string) => {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  return dir;
};

t.test('not root: the cluster stays in DATA_DIR/pg, nothing made elsewhere', { skip: runAs ? 'runs as root' : false }, async (t) => {
  const data = dataDir(home, 'plain');
  t.equal(await placeCluster(data, runAs, log, base), join(data, 'pg'));
  t.same(readdirSync(base), []);
});

t.test('root, DATA_DIR reachable by postgres: the cluster is DATA_DIR/pg, owned by postgres, 700', { skip: runAs ? false : 'not root' }, async (t) => {
  const open = mkdtempSync(join(tmpdir(), 'dt-cluster-open-'));
  chmodSync(open, 0o755);
  t.teardown(() => rmSync(open, { recursive: true, force: true }));
  const data = dataDir(open, 'data');
  const dir = await placeCluster(data, runAs, log, base);
  t.equal(dir, join(data, 'pg'));
  const stat = lstatSync(dir);
  t.ok(stat.isDirectory() && !stat.isSymbolicLink(), 'a directory in place');
  t.equal(stat.uid, runAs!.uid);
  t.equal(stat.mode & 0o777, 0o700);
  t.same(readdirSync(base), [], 'nothing relocated');
});

t.test('root, DATA_DIR closed to postgres: the cluster goes to <base>/clusters/<hash>, DATA_DIR/pg links to it', { skip: runAs ? false : 'not root' }, async (t) => {
  const data = dataDir(home, 'data');
  const target = join(base, 'clusters', hashOf(data));
  const dir = await placeCluster(data, runAs, log, base);
  t.equal(dir, join(data, 'pg'));
  t.equal(readlinkSync(dir), target, 'DATA_DIR/pg is a symlink to the relocated cluster');
  t.equal(statSync(target).uid, runAs!.uid, 'owned by postgres');
  t.equal(statSync(target).mode & 0o777, 0o700);
  t.equal(statSync(join(base, 'clusters')).mode & 0o777, 0o755);
  t.ok(lines.some((l) => l.includes(`the embedded PostgreSQL cluster is in ${target}`) && l.includes(`cannot enter ${data}`)), 'one info line says where and why');

  writeFileSync(join(target, 'PG_VERSION'), '18\n'); // initialised meanwhile
  const before = lines.length;
  t.equal(await placeCluster(data, runAs, log, base), dir, 'the next start finds it through the link');
  t.equal(lines.length, before, 'and says nothing more');

  removeDataDir(data, base);
  t.notOk(existsSync(target), 'removeDataDir removes the relocated cluster too');
  t.notOk(existsSync(data));
});

t.test('root: a link whose cluster is gone is a clear failure, not a new cluster', { skip: runAs ? false : 'not root' }, async (t) => {
  const data = dataDir(home, 'gone');
  await placeCluster(data, runAs, log, base);
  rmSync(join(base, 'clusters', hashOf(data)), { recursive: true });
  await t.rejects(placeCluster(data, runAs, log, base), { name: 'EmbeddedPostgresError', message: /\/pg points to .*, which is gone.*remove .*\/pg and .*embedded-postgres\.json to start an empty cluster$/ });
  t.notOk(existsSync(join(base, 'clusters', hashOf(data))), 'nothing was re-created');
});

t.test('root: an earlier relocated cluster whose DATA_DIR was deleted is moved aside, not reused', { skip: runAs ? false : 'not root' }, async (t) => {
  const data = dataDir(home, 'reset');
  await placeCluster(data, runAs, log, base);
  const target = join(base, 'clusters', hashOf(data));
  writeFileSync(join(target, 'PG_VERSION'), '18\n');
  rmSync(data, { recursive: true }); // "start afresh"
  dataDir(home, 'reset');
  await placeCluster(data, runAs, log, base);
  t.same(readdirSync(target), [], 'a new, empty cluster directory');
  const aside = readdirSync(join(base, 'clusters')).filter((f) => f.startsWith(`${hashOf(data)}.orphaned-`));
  t.equal(aside.length, 1, 'the old one kept beside it');
  t.ok(existsSync(join(base, 'clusters', aside[0], 'PG_VERSION')));
  t.ok(lines.some((l) => l.includes(`was moved to ${join(base, 'clusters', aside[0])}`)), 'and the log says where');
});

t.test('root: an initialised cluster postgres cannot reach is one clear line, never re-initialised', { skip: runAs ? false : 'not root' }, async (t) => {
  const data = dataDir(home, 'moved');
  mkdirSync(join(data, 'pg'));
  writeFileSync(join(data, 'pg', 'PG_VERSION'), '18\n');
  await t.rejects(placeCluster(data, runAs, log, base), { name: 'EmbeddedPostgresError', message: new RegExp(`^PostgreSQL runs as the postgres user \\(it refuses to run as root\\), which cannot enter ${data}/pg: .*set DATA_DIR to a directory it can reach, or set DATABASE_URL$`) });
  t.notOk(existsSync(join(base, 'clusters', hashOf(data))), 'no cluster made elsewhere');
});

t.test('root: when the base is closed to postgres too, the line names both directories', { skip: runAs ? false : 'not root' }, async (t) => {
  const closed = mkdtempSync(join(tmpdir(), 'dt-cluster-closed-'));
  t.teardown(() => rmSync(closed, { recursive: true, force: true }));
  const data = dataDir(home, 'nowhere');
  await t.rejects(placeCluster(data, runAs, log, closed), { message: new RegExp(`which can enter neither ${data} nor ${closed}/clusters/${hashOf(data)}: `) });
  t.notOk(existsSync(join(data, 'pg')), 'no link to a place it cannot use');
});
