import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One built asset: its bytes, a gzip copy, and a name that changes with its content (cached forever). */
export interface BoardAsset { name: string; contentType: string; body: Buffer; gzip: Buffer }
/**
 * `js` is the entry module, `preload` the chunks it imports statically (the page names them all),
 * `byName` every asset: those and the chunks the board imports on first use (tabs).
 */
export interface BoardBundle { js: BoardAsset; css: BoardAsset; preload: BoardAsset[]; byName: Map<string, BoardAsset> }

/** The build this module belongs to: compiled (dist/server/*.js) or run from its TypeScript source. */
const compiled = !import.meta.url.endsWith('.ts');

interface BoardManifest { board: { dir: string; js: string; css: string; chunks?: string[]; preload?: string[] } }

/**
 * Where the board comes from. The compiled server serves dist/board, built with it by
 * server/build.mjs (`npm start` builds first when it is missing or stale). Run from the sources
 * (tests, benchmarks) the server serves dist/board-test, the same board with the test hook
 * `window.dtBoard`, built here first when it is missing or stale (the test runner builds it
 * before any test starts).
 */
async function boardFiles(): Promise<{ dir: string; manifest: BoardManifest }> {
  if (compiled) {
    const dist = fileURLToPath(new URL('../', import.meta.url));
    const manifest = JSON.parse(await readFile(join(dist, 'build.json'), 'utf8')) as BoardManifest;
    return { dir: join(dist, manifest.board.dir), manifest };
  }
  const { ensureBuilt, targets } = await import('../../build-check.mjs');
  const manifest = await ensureBuilt(targets.boardTest, (line) => process.stderr.write(`${line}\n`)) as BoardManifest;
  return { dir: join(targets.boardTest.dir, manifest.board.dir), manifest };
}

async function asset(dir: string, name: string): Promise<BoardAsset> {
  const [body, gzip] = await Promise.all([readFile(join(dir, name)), readFile(join(dir, `${name}.gz`))]);
  const contentType = name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8';
  return { name, contentType, body, gzip };
}

async function loadBoard(): Promise<BoardBundle> {
  const { dir, manifest } = await boardFiles();
  const { js: jsName, css: cssName, chunks = [], preload = [] } = manifest.board;
  const [js, css, ...rest] = await Promise.all([jsName, cssName, ...chunks].map((name) => asset(dir, name)));
  const byName = new Map([js, css, ...rest].map((a) => [a.name, a]));
  return { js, css, preload: preload.map((name) => byName.get(name)!), byName };
}

let loading: Promise<BoardBundle> | null = null;

/**
 * The board's script and style sheet, read once per process on first use (`serve` reads them at
 * once). A failed read (no build) is not kept: the next request tries again.
 */
export function boardBundle(): Promise<BoardBundle> {
  loading ??= loadBoard().catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
}
