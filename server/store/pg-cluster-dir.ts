import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, renameSync, rmdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Log } from '../core/log.ts';
import { createSharedDir, systemDir } from './pg-binaries.ts';
import { readPostmasterPid } from './pg-process.ts';
import { isAlive } from './pid.ts';
import { EmbeddedPostgresError } from './pg-error.ts';
import { succeedsAs, type RunAs } from './pg-user.ts';

/**
 * The cluster directory of `dataDir`, ready for `runAs` (null: this process's user) to initialise or
 * start, always reached as `<dataDir>/pg`:
 * - not root: `<dataDir>/pg` itself;
 * - root, the postgres user can enter `dataDir`: `<dataDir>/pg`, owned by that user;
 * - root, it cannot (the project under /root, in a mode-700 folder): a new cluster goes to
 *   `<base>/clusters/<hash of dataDir>`, owned by that user, and `<dataDir>/pg` becomes a symlink
 *   to it, so `ls data/` shows where it is.
 * A cluster that is initialised, or linked, but that the postgres user cannot reach is an error,
 * never initialised afresh: its data would be lost from view.
 */
export async function placeCluster(dataDir: string, runAs: RunAs | null, log: Log, base = systemDir): Promise<string> {
  const link = join(dataDir, 'pg');
  if (!runAs) return link;
  const target = symlinkTarget(link);
  if (target !== null) {
    if (!existsSync(target)) {
      throw new EmbeddedPostgresError(`${link} points to ${target}, which is gone, and the cluster with it (was ${base} not kept, e.g. not on a volume?): remove ${link} and ${join(dataDir, 'embedded-postgres.json')} to start an empty cluster`);
    }
    if (!(await ownedReachableDir(target, runAs))) throw unreachable(runAs, `cannot enter ${target}, where ${link} points`);
    return link;
  }
  if (existsSync(join(link, 'PG_VERSION')) || (await succeedsAs(runAs, 'cd "$1"', dataDir))) {
    if (!(await ownedReachableDir(link, runAs))) throw unreachable(runAs, `cannot enter ${link}`);
    return link;
  }
  const relocated = join(base, 'clusters', createHash('sha256').update(realpathSync(dataDir)).digest('hex').slice(0, 16));
  setAsideOrphan(relocated, log);
  createSharedDir(dirname(relocated));
  if (!(await ownedReachableDir(relocated, runAs))) throw unreachable(runAs, `can enter neither ${dataDir} nor ${relocated}`);
  try {
    if (existsSync(link)) rmdirSync(link); // an empty leftover (a failed initdb); anything else is not ours to remove
  } catch {
    throw new EmbeddedPostgresError(`${link} is neither a PostgreSQL cluster nor empty: move it away`);
  }
  symlinkSync(relocated, link);
  log.info(`the embedded PostgreSQL cluster is in ${relocated} (linked from ${link}): PostgreSQL runs as the ${runAs.name} user (it refuses to run as root), which cannot enter ${dataDir}`);
  return link;
}

/**
 * Makes `dir` a directory of `runAs` (created 700 if missing; an initialised cluster is left as
 * it is); whether that user can really enter and write it.
 */
async function ownedReachableDir(dir: string, runAs: RunAs): Promise<boolean> {
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownSync(dir, runAs.uid, runAs.gid);
    chmodSync(dir, 0o700);
  }
  return succeedsAs(runAs, 'cd "$1" && test -w .', dir);
}

function unreachable(runAs: RunAs, which: string): EmbeddedPostgresError {
  return new EmbeddedPostgresError(`PostgreSQL runs as the ${runAs.name} user (it refuses to run as root), which ${which}: let it in (it needs x on every parent directory), set DATA_DIR to a directory it can reach, or set DATABASE_URL`);
}

/** Where `link` points when it is a symlink, else null. */
function symlinkTarget(link: string): string | null {
  try {
    return lstatSync(link).isSymbolicLink() ? resolve(dirname(link), readlinkSync(link)) : null;
  } catch {
    return null; // missing
  }
}

/**
 * A relocated cluster whose link is gone (DATA_DIR was deleted, to start afresh) is moved aside
 * rather than reused (its password went with DATA_DIR) or deleted (it may hold the only copy).
 */
function setAsideOrphan(dir: string, log: Log): void {
  if (!existsSync(dir) || readdirSync(dir).length === 0) return;
  const postmaster = readPostmasterPid(dir);
  if (postmaster !== null && isAlive(postmaster)) {
    throw new EmbeddedPostgresError(`${dir} holds a cluster that no DATA_DIR links to any more but that PostgreSQL (pid ${postmaster}) still runs: stop it, then start again`);
  }
  const aside = `${dir}.orphaned-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(dir, aside);
  log.warn(`an earlier cluster of this DATA_DIR, no longer linked from it, was moved to ${aside}; delete it when it is not needed`);
}

/**
 * Deletes a DATA_DIR and, when its cluster was relocated to `<base>/clusters/`, that cluster
 * (for temporary DATA_DIRs of tests and benchmarks). Synchronous: it may run in an `exit` handler.
 */
export function removeDataDir(dataDir: string, base = systemDir): void {
  const target = symlinkTarget(join(dataDir, 'pg'));
  if (target !== null && target.startsWith(join(base, 'clusters') + '/')) rmSync(target, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
