import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** One built asset: its bytes, a gzip copy, and a name that changes with its content (cached forever). */
export interface BoardAsset { name: string; contentType: string; body: Buffer; gzip: Buffer }
export interface BoardBundle { js: BoardAsset; css: BoardAsset; byName: Map<string, BoardAsset> }

const boardDir = fileURLToPath(new URL('../../../board/', import.meta.url));

function asset(kind: 'js' | 'css', body: Buffer): BoardAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return {
    name: `app-${hash}.${kind}`,
    contentType: kind === 'js' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
    body, gzip: gzipSync(body, { level: 9 }),
  };
}

/** Bundles board/src with esbuild (Preact JSX, minified, one JS and one CSS file), in memory. */
async function buildBoard(): Promise<BoardBundle> {
  const result = await build({
    entryPoints: { app: `${boardDir}src/main.tsx` },
    bundle: true, minify: true, write: false, format: 'esm', target: 'es2020', platform: 'browser',
    outdir: '/board-out', jsx: 'automatic', jsxImportSource: 'preact', legalComments: 'none', logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const file = (ext: string) => Buffer.from(result.outputFiles.find((f) => f.path.endsWith(ext))?.contents ?? new Uint8Array());
  const js = asset('js', file('.js'));
  const css = asset('css', file('.css'));
  return { js, css, byName: new Map([[js.name, js], [css.name, css]]) };
}

let building: Promise<BoardBundle> | null = null;

/**
 * The board's bundle, built from the sources once per process on first use (`serve` starts it at
 * once), so `npm start` always serves the board of the code it runs: no build step to remember.
 * A failed build is not kept: the next request tries again.
 */
export function boardBundle(): Promise<BoardBundle> {
  building ??= buildBoard().catch((err) => {
    building = null;
    throw err;
  });
  return building;
}
