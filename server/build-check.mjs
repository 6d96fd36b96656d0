/**
 * The compiled product in dist/ and whether it still matches the sources. Plain JavaScript that
 * imports only node: modules: the bin runs it first, also in a production install (no tsx, no
 * esbuild); server/build.mjs makes the builds, and is loaded only when one is needed.
 *
 * A build's `build.json` records the package version, the build format, the files it wrote and
 * every input esbuild read (plus the build scripts and tsconfig.json) with size, mtime and
 * sha256. It is fresh when the version is package.json's, the format is this file's, its files
 * are there, and every input still has its size and mtime or, where only the mtime moved (a
 * checkout, a touch), its content. Checking ~400 inputs takes a few milliseconds.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const distDir = join(root, 'dist');
/** Bumped when the layout of dist/ or build.json changes: older builds are then stale. */
export const BUILD_FORMAT = 2;

/**
 * `product`: what `npm start` runs: dist/server (the server and CLI, compiled), dist/alarm (the
 * terminal alarm client of the SDK) and dist/board (the board without its test hook). `boardTest`: the board with `window.dtBoard`, served when the
 * server runs from its TypeScript sources (tests, benchmarks).
 */
export const targets = {
  product: { name: 'product', dir: distDir },
  boardTest: { name: 'boardTest', dir: join(distDir, 'board-test') },
};

/** @param {{ dir: string }} target */
export const manifestPath = (target) => join(target.dir, 'build.json');

/** The checkout's sources are here (a dev clone), not only the built output (a production install). */
export const sourcesPresent = () => existsSync(join(root, 'server', 'cli.ts'));

export const packageVersion = () => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;

/** @param {{ dir: string }} target @returns {any} the target's build.json, or null when missing or unreadable */
export function readManifest(target) {
  try {
    return JSON.parse(readFileSync(manifestPath(target), 'utf8'));
  } catch {
    return null;
  }
}

export const sha256 = (/** @type {Buffer} */ bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Why the target's build cannot be run as it is, or null when it can. Without sources (a
 * production install) only the version, format and files are checked: there is nothing to compare.
 * @param {{ dir: string }} target
 */
export function staleReason(target) {
  const manifest = readManifest(target);
  if (!manifest) return 'there is no build yet';
  if (manifest.format !== BUILD_FORMAT) return 'the build has an older format';
  const version = packageVersion();
  if (manifest.version !== version) return `the build is of version ${manifest.version}, the package is ${version}`;
  const missing = manifest.files.find((/** @type {string} */ f) => !existsSync(join(target.dir, f)));
  if (missing) return `the build's file ${missing} is missing`;
  if (!sourcesPresent()) return null;
  for (const [path, [size, mtimeMs, hash]] of Object.entries(manifest.inputs)) {
    let stat;
    try {
      stat = statSync(join(root, path));
    } catch {
      // A dependency the build read that is gone: dev dependencies pruned (`npm ci --omit=dev` in
      // a checkout). What was built from it is in dist/ and needs it no more; one that changed is stale.
      if (path.startsWith('node_modules/')) continue;
      return `${path} is gone`;
    }
    if (stat.size !== size) return `${path} changed`;
    if (stat.mtimeMs !== mtimeMs && sha256(readFileSync(join(root, path))) !== hash) return `${path} changed`;
  }
  return null;
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `fn` holding dist/.lock (a directory: made atomically), so two processes never write a
 * build at once. A lock whose process is gone, or older than two minutes, is taken over.
 * @template T @param {() => Promise<T>} fn @returns {Promise<T>}
 */
export async function withBuildLock(fn) {
  const lock = join(distDir, '.lock');
  mkdirSync(distDir, { recursive: true });
  for (const deadline = Date.now() + 120_000; ;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
      if (lockAbandoned(lock) || Date.now() > deadline) rmSync(lock, { recursive: true, force: true });
      else await sleep(100);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** @param {string} lock */
function lockAbandoned(lock) {
  try {
    if (Date.now() - statSync(lock).mtimeMs > 120_000) return true;
    const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    if (!pid) return false; // just made; its pid is being written
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'ESRCH' || /** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT';
  }
}

/**
 * The target's manifest, built first when it is missing or stale: with the sources here, by
 * server/build.mjs (`say` gets one line saying why); without them, an error saying what to do.
 * @param {{ name: string, dir: string }} target
 * @param {(line: string) => void} say
 */
export async function ensureBuilt(target, say) {
  const reason = staleReason(target);
  if (!reason) return readManifest(target);
  if (!sourcesPresent()) {
    throw new Error(`the compiled server in ${distDir} cannot be used: ${reason}. Build it where the sources and dev dependencies are (npm ci && npm run build) and install it with its package.json`);
  }
  return withBuildLock(async () => {
    const still = staleReason(target); // another process may have built it while this one waited
    if (still) {
      say(`building ${target.name === 'product' ? 'the server and the board into dist/' : 'the board with its test hook into dist/board-test/'} (${still})`);
      const { build } = await import('./build.mjs');
      await build(target);
    }
    return readManifest(target);
  });
}
