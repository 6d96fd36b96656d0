import { execFile, spawn } from 'node:child_process';
import { EmbeddedPostgresError } from './pg-error.ts';

/** The user PostgreSQL runs as when this process is root; null: as this process's own user. */
export interface RunAs { name: string; uid: number; gid: number }

const postgresUser = 'postgres';

/**
 * Who runs the embedded PostgreSQL. PostgreSQL refuses to run as root, so as root it runs as the
 * `postgres` user, which is created when missing (a fresh container has none).
 */
export async function postgresRunAs(): Promise<RunAs | null> {
  if (process.getuid?.() !== 0) return null;
  const found = await lookupUser(postgresUser);
  if (found) return found;
  const failure = await createSystemUser(postgresUser);
  const created = await lookupUser(postgresUser);
  if (created) return created;
  throw new EmbeddedPostgresError(`PostgreSQL refuses to run as root and there is no "${postgresUser}" user to run it as; creating one failed (${failure ?? 'it is still missing'}): create it (useradd --system ${postgresUser}), run as a non-root user, or set DATABASE_URL`);
}

/**
 * Whether `runAs` (null: this process's user) can run `script` under `sh -c` with `args` as $1, $2…
 * A real attempt rather than a look at mode bits, so every parent directory, ACLs and mount options
 * count. Spawned like PostgreSQL is: that uid and primary gid, no supplementary groups, cwd `/`.
 */
export function succeedsAs(runAs: RunAs | null, script: string, ...args: string[]): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', script, 'probe', ...args], { ...spawnIdentity(runAs), stdio: 'ignore' });
    child.once('error', (err) => reject(new EmbeddedPostgresError(`cannot check what the ${runAs?.name ?? 'current'} user can reach (/bin/sh: ${err.message})`)));
    child.once('close', (code) => resolve(code === 0));
  });
}

/** Spawn options that run a child as `runAs`; cwd `/` because ours may be closed to that user. */
export function spawnIdentity(runAs: RunAs | null): { uid?: number; gid?: number; cwd: string } {
  return runAs ? { uid: runAs.uid, gid: runAs.gid, cwd: '/' } : { cwd: '/' };
}

async function lookupUser(name: string): Promise<RunAs | null> {
  const [uid, gid] = await Promise.all([output('id', ['-u', name]), output('id', ['-g', name])]);
  if (uid === null || gid === null || !/^\d+$/.test(uid) || !/^\d+$/.test(gid)) return null;
  return { name, uid: Number(uid), gid: Number(gid) };
}

/**
 * Creates a system user and its group: shadow-utils (Debian, Fedora…), else BusyBox (Alpine).
 * Resolves null on success, else why it failed.
 */
async function createSystemUser(name: string): Promise<string | null> {
  const shadow = await attempt('groupadd', ['--system', name]);
  if (shadow !== 'missing') {
    if (shadow !== null && !/already exists/.test(shadow)) return shadow;
    const user = await attempt('useradd', ['--system', '--gid', name, '--no-create-home', '--shell', '/usr/sbin/nologin', name]);
    return user === 'missing' ? 'useradd is not installed' : user;
  }
  const group = await attempt('addgroup', ['-S', name]);
  if (group === 'missing') return 'neither groupadd nor addgroup is installed';
  if (group !== null && !/in use|exists/.test(group)) return group;
  const user = await attempt('adduser', ['-S', '-D', '-H', '-G', name, '-s', '/sbin/nologin', name]);
  return user === 'missing' ? 'adduser is not installed' : user;
}

/** null: the command succeeded; 'missing': it is not installed; else its last line of stderr. */
function attempt(cmd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(cmd, args, (err, _stdout, stderr) => {
      if (!err) return resolve(null);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return resolve('missing');
      resolve(`${cmd}: ${lastLine(stderr) || err.message}`);
    });
  });
}

/** Trimmed stdout of a command, or null when it fails. */
function output(cmd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => execFile(cmd, args, (err, stdout) => resolve(err ? null : stdout.trim())));
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).pop()?.trim() ?? '';
}
