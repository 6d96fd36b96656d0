import { execFileSync } from 'node:child_process';

/**
 * Installs the Debian packages whose command is missing (CI machines start without them), as
 * `[command, package]` pairs: the tests' redis-server and chromium, the statements bench's valgrind.
 */
export function ensureDebianPackages(wanted: [command: string, pkg: string][]): void {
  const missing = wanted.filter(([cmd]) => {
    try {
      execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  }).map(([, pkg]) => pkg);
  if (!missing.length) return;
  process.stderr.write(`installing ${missing.join(', ')} from Debian's packages…\n`);
  const apt = (args: string[]) => execFileSync('apt-get', args, { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    apt(['install', '-y', '--no-install-recommends', ...missing]);
  } catch {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', ...missing]);
  }
}
