import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
  // Test files run in parallel and may install at the same moment: wait for the other's lock.
  const apt = (args: string[]) => execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    apt(['install', '-y', '--no-install-recommends', ...missing]);
  } catch {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', ...missing]);
  }
}

/**
 * The Debian mirror this machine's apt uses (its first `deb` source that is not the security
 * archive), for debootstrap; Debian's own redirector where none is configured.
 */
export function debianMirror(): string {
  const files = ['/etc/apt/sources.list'];
  const dir = '/etc/apt/sources.list.d';
  if (existsSync(dir)) files.push(...readdirSync(dir).filter((f) => /\.(list|sources)$/.test(f)).map((f) => join(dir, f)));
  for (const file of files.filter((f) => existsSync(f))) {
    const text = readFileSync(file, 'utf8');
    const uris = [
      ...[...text.matchAll(/^\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)/gm)].map((m) => m[1]),
      ...[...text.matchAll(/^\s*URIs:\s*(.+)$/gim)].flatMap((m) => m[1].trim().split(/\s+/)),
    ];
    const mirror = uris.find((u) => /^https?:\/\//.test(u) && !/security/.test(u));
    if (mirror) return mirror.replace(/\/$/, '');
  }
  return 'http://deb.debian.org/debian';
}
