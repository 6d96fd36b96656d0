#!/usr/bin/env node
/**
 * Builds what `npm start` runs into dist/ (git-ignored): `npm run build`.
 *
 * - dist/server/: the server and CLI (entry cli.js) and the chart worker (chart-worker.js),
 *   compiled by esbuild from server/ (and what it imports of contract/) as ES modules for Node
 *   20. Packages stay imports, resolved from node_modules at run time. Code splitting follows the
 *   sources' dynamic imports, so what a source imports lazily (the Discord bot, the charts, the
 *   CLI's commands) is a chunk of its own that is loaded only when used. Not minified: stack
 *   traces keep the names; source maps beside the files (node --enable-source-maps).
 *   dist/server sits two levels below the root like server/<dir>/, so paths that modules find
 *   relative to themselves (store/migrate.ts: ../../sql/) hold in both.
 * - dist/alarm/: the terminal alarm client (client-sdk/alarm-cli.ts, entry alarm-cli.js), which
 *   the bin runs for `dispatch-terminal alarm`: it shares nothing with the server's build.
 * - dist/board/: the board (board/src), minified: an entry script, one style sheet and the chunks
 *   loaded on first use (tabs), named by content hash, each with a gzip copy; without the test
 *   hook `window.dtBoard`.
 * - dist/board-test/ (target boardTest, made only for tests and benchmarks): the same board with
 *   the hook.
 * - build.json per target: see build-check.mjs.
 *
 * Files are written beside the old ones and build.json last; a server still running from the
 * previous build finds that build's chunks until the next build after this one.
 * esbuild (a dev dependency) is imported only here, and only when building.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUILD_FORMAT, distDir, manifestPath, packageVersion, readManifest, root, sha256, targets, withBuildLock } from './build-check.mjs';

/** Inputs esbuild does not report but that shape the output. */
const extraInputs = ['server/build.mjs', 'server/build-check.mjs', 'tsconfig.json'];

async function loadEsbuild() {
  try {
    return await import('esbuild');
  } catch (err) {
    throw new Error(`building needs esbuild, a dev dependency (npm ci without --omit=dev): ${/** @type {Error} */ (err).message}`);
  }
}

/** @param {import('esbuild').Metafile} meta @param {Record<string, [number, number, string]>} into */
function recordInputs(meta, into) {
  for (const path of [...Object.keys(meta.inputs), ...extraInputs]) {
    if (into[path] || path.includes(':')) continue; // namespaced (virtual) inputs have no file
    const file = join(root, path);
    const stat = statSync(file);
    into[path] = [stat.size, stat.mtimeMs, sha256(readFileSync(file))];
  }
}

/**
 * The board: an entry module `app-<hash>.js` and one style sheet `app-<hash>.css` (named by a
 * sha256 of their content), plus the chunks its dynamic imports load on first use (a tab, the
 * alarm kiosk) and the chunks they share (named by esbuild's content hash), minified, each with a
 * `.gz` copy (level 9), written into `outDir`. `testHooks` keeps `window.dtBoard`. The style sheet
 * holds the styles of every chunk (esbuild puts the CSS a lazy chunk imports into its entry's
 * sheet too); per-chunk sheets are not written. `preload` lists the chunks the entry imports
 * statically (directly or through each other): the page names them, so the browser fetches them
 * with the entry instead of after it.
 * @param {typeof import('esbuild')} esbuild @param {string} outDir @param {boolean} testHooks
 */
async function buildBoard(esbuild, outDir, testHooks) {
  const result = await esbuild.build({
    absWorkingDir: root, entryPoints: { app: 'board/src/main.tsx' },
    bundle: true, splitting: true, minify: true, write: false, format: 'esm', target: 'es2020', platform: 'browser',
    outdir: '/board-out', entryNames: '[name]', chunkNames: '[name]-[hash]', jsx: 'automatic', jsxImportSource: 'preact',
    legalComments: 'none', logLevel: 'silent', metafile: true,
    define: { 'process.env.NODE_ENV': '"production"', DT_TEST_HOOKS: String(testHooks) },
  });
  mkdirSync(outDir, { recursive: true });
  const outputs = result.metafile.outputs;
  const entryKey = Object.keys(outputs).find((k) => outputs[k].entryPoint === 'board/src/main.tsx');
  const cssKey = entryKey && outputs[entryKey].cssBundle;
  if (!entryKey || !cssKey) throw new Error('the board build made no entry script or style sheet');
  const base = (/** @type {string} */ key) => key.slice(key.lastIndexOf('/') + 1);
  /** @param {string} name @param {Uint8Array} contents */
  const write = (name, contents) => {
    const body = Buffer.from(contents);
    writeFileSync(join(outDir, name), body);
    writeFileSync(join(outDir, `${name}.gz`), gzipSync(body, { level: 9 }));
  };
  const hashed = (/** @type {Uint8Array} */ body, /** @type {string} */ ext) => `app-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.${ext}`;
  /** @type {Record<string, string>} */
  const names = {};
  /** @type {string[]} */
  const chunks = [];
  for (const file of result.outputFiles) {
    const name = base(file.path); // one output directory: names are unique
    if (name === base(entryKey)) write((names.js = hashed(file.contents, 'js')), file.contents);
    else if (name === base(cssKey)) write((names.css = hashed(file.contents, 'css')), file.contents);
    else if (name.endsWith('.js')) {
      chunks.push(name);
      write(name, file.contents);
    }
  }
  /** @type {Set<string>} */
  const preload = new Set();
  const visit = (/** @type {string} */ key) => {
    for (const i of outputs[key].imports) {
      if (i.kind !== 'import-statement' || preload.has(base(i.path))) continue;
      preload.add(base(i.path));
      visit(i.path);
    }
  };
  visit(entryKey);
  return { js: names.js, css: names.css, chunks: chunks.sort(), preload: [...preload].sort(), meta: result.metafile };
}

/** @param {typeof import('esbuild')} esbuild @param {string} outDir */
async function buildServer(esbuild, outDir) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { cli: 'server/cli.ts', 'chart-worker': 'server/domains/stats/charts/worker.ts' },
    bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external',
    outdir: outDir, chunkNames: 'chunk-[hash]', sourcemap: true, legalComments: 'none', logLevel: 'warning', metafile: true,
  });
  return result.metafile;
}

/**
 * The terminal alarm client (`dispatch-terminal alarm`): the SDK's client-sdk/alarm-cli.ts as one
 * module of its own, so the bin runs it without loading anything of the server.
 * @param {typeof import('esbuild')} esbuild @param {string} outDir
 */
async function buildAlarm(esbuild, outDir) {
  const result = await esbuild.build({
    absWorkingDir: root, entryPoints: { 'alarm-cli': 'client-sdk/alarm-cli.ts' },
    bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external',
    outdir: outDir, sourcemap: true, legalComments: 'none', logLevel: 'warning', metafile: true,
  });
  return result.metafile;
}

/** @param {string} dir @returns {string[]} files under dir, relative to it */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath ?? e.path, e.name)));
}

/**
 * Builds `target` (targets.product or targets.boardTest of build-check.mjs) into its directory.
 * Callers hold the build lock (ensureBuilt) or are `npm run build`.
 * @param {{ name: string, dir: string }} target
 */
export async function build(target) {
  const esbuild = await loadEsbuild();
  const scratch = join(distDir, `.next-${process.pid}-${Date.now()}`);
  rmSync(scratch, { recursive: true, force: true });
  try {
    /** @type {Record<string, [number, number, string]>} */
    const inputs = {};
    /** @type {Record<string, unknown>} */
    const manifest = { format: BUILD_FORMAT, version: packageVersion(), builtAt: new Date().toISOString() };
    if (target.name === 'product') {
      const [serverMeta, alarmMeta, board] = await Promise.all([
        buildServer(esbuild, join(scratch, 'server')),
        buildAlarm(esbuild, join(scratch, 'alarm')),
        buildBoard(esbuild, join(scratch, 'board'), false),
      ]);
      recordInputs(serverMeta, inputs);
      recordInputs(alarmMeta, inputs);
      recordInputs(board.meta, inputs);
      Object.assign(manifest, { server: 'server/cli.js', alarm: 'alarm/alarm-cli.js', board: { dir: 'board', js: board.js, css: board.css, chunks: board.chunks, preload: board.preload } });
    } else {
      const board = await buildBoard(esbuild, scratch, true);
      recordInputs(board.meta, inputs);
      Object.assign(manifest, { board: { dir: '.', js: board.js, css: board.css, chunks: board.chunks, preload: board.preload } });
    }
    const files = filesUnder(scratch).sort();
    install(target, scratch, files, { ...manifest, files, inputs });
    return manifest;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Moves the new files into place (a rename each: a reader sees a whole old or a whole new file),
 * then build.json, then removes files that neither this build nor the one before wrote.
 * @param {{ dir: string }} target @param {string} scratch @param {string[]} files @param {Record<string, unknown>} manifest
 */
function install(target, scratch, files, manifest) {
  const previous = readManifest(target);
  for (const file of files) {
    mkdirSync(dirname(join(target.dir, file)), { recursive: true });
    renameSync(join(scratch, file), join(target.dir, file));
  }
  const temp = `${manifestPath(target)}.${process.pid}`;
  writeFileSync(temp, `${JSON.stringify(manifest, null, 1)}\n`);
  renameSync(temp, manifestPath(target));
  const keep = new Set([...files, ...(previous?.files ?? []), 'build.json']);
  const owned = target.name === 'product' ? ['server', 'alarm', 'board'] : ['.'];
  for (const sub of owned) {
    const dir = join(target.dir, sub);
    for (const file of filesUnder(dir)) {
      const rel = join(sub, file).replace(/^\.\//, '');
      if (!keep.has(rel) && !rel.includes('/.') && !rel.startsWith('.')) rmSync(join(dir, file), { force: true });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const target = process.argv.includes('--board-test') ? targets.boardTest : targets.product;
  withBuildLock(() => build(target)).then(
    (m) => console.log(`built ${target.name === 'product' ? 'the server and the board' : 'the test board'} into ${relative(process.cwd(), target.dir) || '.'} in ${Date.now() - started} ms (version ${m.version})`),
    (err) => {
      console.error(`build failed: ${err?.message ?? err}`);
      process.exit(1);
    },
  );
}
