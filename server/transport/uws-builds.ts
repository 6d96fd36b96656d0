import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The uWebSockets.js builds this project ships, and the choice between them. No single package on
 * the npm registry has binaries for every Node line we support on every distribution, so two are
 * installed (same JavaScript API and types) and the first one whose binary loads here is used.
 */
export interface UwsBuild {
  /** The npm package, named in the log and in the refusal line. */
  name: string;
  /** Where its binaries run, for the refusal line. */
  runsOn: string;
  /** Loads the binary; throws when this system cannot (no binary for this Node, or too old a glibc). */
  load: () => unknown;
}

const loadPackage = createRequire(import.meta.url);

/**
 * Newest first: uWS 20.57 is maintained and the only build for Node 22 and later. The 20.30 build
 * serves Node 20 on distributions older than glibc 2.38 (Debian 12, Ubuntu 22.04). Its binary is
 * loaded directly: through its package entry a failed load falls back, with console warnings, to a
 * slow JavaScript server.
 */
export const shippedBuilds: UwsBuild[] = [
  {
    name: '@btc-vision/uwebsockets.js',
    runsOn: 'Node 20, 22, 24 or 25 on glibc 2.38 or newer (Debian 13, Ubuntu 24.04, Fedora 39 and later), macOS, Windows',
    load: () => loadPackage('@btc-vision/uwebsockets.js'),
  },
  {
    name: '@trufflesuite/uws-js-unofficial',
    runsOn: 'Node 20 on glibc 2.31 or newer (Debian 11, Ubuntu 20.04 and later)',
    load: () => {
      const dir = dirname(loadPackage.resolve('uWebSockets.js/package.json'));
      return loadPackage(join(dir, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`));
    },
  },
];

/** Thrown when no build loads; its message is the one line the operator reads. */
export class UwsUnavailableError extends Error {
  override name = 'UwsUnavailableError';
}

/**
 * The first build whose native binary loads here. A module that loads but is not native (a
 * JavaScript fallback) counts as not loading: it would serve, silently, at a fraction of the speed.
 */
export function loadUws<T = unknown>(builds: UwsBuild[] = shippedBuilds): { uws: T; build: string } {
  const failures: string[] = [];
  for (const build of builds) {
    let loaded: unknown;
    try {
      loaded = build.load();
    } catch (err) {
      failures.push(`${build.name}: ${whyNot(err)}`);
      continue;
    }
    if (!String((loaded as { App?: unknown } | null)?.App).includes('[native code]')) {
      failures.push(`${build.name}: a JavaScript stand-in, not the native binary`);
      continue;
    }
    return { uws: loaded as T, build: build.name };
  }
  throw new UwsUnavailableError(refusal(builds, failures));
}

/** One line: what this system is, what runs where, what to do, and why each build did not load. */
function refusal(builds: UwsBuild[], failures: string[]): string {
  const glibc = glibcVersion();
  const here = `Node ${process.versions.node} on ${process.platform}-${process.arch}${glibc ? ` with glibc ${glibc}` : ''}`;
  return `uWebSockets.js has no build for ${here}; the builds shipped run on ${builds.map((b) => b.runsOn).join('; or ')}. `
    + 'Use Node 24 on a newer distribution, Node 20, or the container image '
    + `(${failures.join('; ')})`;
}

/** The reason a binary did not load, in a few words. */
function whyNot(err: unknown): string {
  const message = String((err as Error | null)?.message ?? err);
  const glibc = /GLIBC_([\d.]+)' not found/.exec(message);
  if (glibc) return `needs glibc ${glibc[1]}`;
  if (/Cannot find module .*\.node\b/.test(message)) return `no binary for this Node (ABI ${process.versions.modules}) on ${process.platform}-${process.arch}`;
  const line = message.split('\n').find((l) => l.trim()) ?? 'unknown error';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

/** The running glibc's version, or undefined (musl, macOS, Windows). */
export function glibcVersion(): string | undefined {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime;
}
