#!/usr/bin/env node
/**
 * Builds the package `@dispatch-terminal/client` into `dist/` (or `--out <dir>`):
 * - JavaScript by esbuild, per entry an ES module (`<entry>.js`) and a CommonJS file (`<entry>.cjs`).
 *   What the SDK shares with the server (contract/: the live reducers, the medic limits) is
 *   bundled in; packages stay imports (`@trpc/client`, `ws`), except superjson in the CommonJS
 *   files (it ships ES modules only). `game` and `medic` import nothing at all: self-contained for
 *   FiveM's Node 16 (`require('./dt-client/game.cjs')`).
 * - Declarations by tsc (emitDeclarationOnly), bundled per entry by rollup-plugin-dts; the router's
 *   types become `router.d.ts` with the server's context type left out (clients never see it).
 *   `.d.cts` twins serve `require` under moduleResolution node16.
 * Run from the repository (it uses the root's esbuild, typescript and rollup): `npm run build:sdk`.
 */
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const sdk = dirname(fileURLToPath(import.meta.url));
const root = resolve(sdk, '..');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : join(sdk, 'dist');

/** Entries: name → source, where it runs, and whether it bundles its packages too. */
const entries = [
  { name: 'index', src: 'index.ts', platform: 'neutral' },
  { name: 'live', src: 'live.ts', platform: 'neutral' },
  { name: 'alarm', src: 'alarm.ts', platform: 'node' },
  { name: 'game', src: 'game.ts', platform: 'node', selfContained: true },
  { name: 'medic', src: 'medic/index.ts', platform: 'node', selfContained: true, optional: true },
].filter((e) => !e.optional || existsSync(join(sdk, e.src)));

const packages = ['@trpc/client', '@trpc/server', 'ws', 'superjson'];

async function buildJs() {
  const jobs = [];
  for (const e of entries) {
    const common = { entryPoints: [join(sdk, e.src)], bundle: true, legalComments: 'none', logLevel: 'warning', charset: 'utf8' };
    // ESM: for Node ≥ 18, bundlers and browsers (index, live); packages stay imports.
    jobs.push(build({
      ...common, format: 'esm', platform: e.platform, outfile: join(out, `${e.name}.js`),
      target: e.selfContained ? 'node16' : 'es2022',
      external: e.selfContained ? [] : packages, mainFields: e.platform === 'neutral' ? ['module', 'main'] : undefined,
    }));
    // CJS: `require` in Node, FiveM resources (Node 16) for game and medic. superjson is ES-only: bundled.
    jobs.push(build({
      ...common, format: 'cjs', platform: 'node', outfile: join(out, `${e.name}.cjs`),
      target: e.selfContained ? 'node16' : 'node18',
      external: e.selfContained ? [] : packages.filter((p) => p !== 'superjson'),
    }));
  }
  await Promise.all(jobs);
}

/** tsc declarations of the entries (and all they reach) into a scratch tree under `tmp`. */
function emitDeclarations(tmp) {
  const cfgPath = join(sdk, 'tsconfig.build.json');
  const cfg = ts.getParsedCommandLineOfConfigFile(cfgPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  const rootNames = [...entries.map((e) => join(sdk, e.src)), join(sdk, 'router.ts')];
  const program = ts.createProgram(rootNames, { ...cfg.options, outDir: tmp, rootDir: root });
  const result = program.emit(undefined, undefined, undefined, true);
  const diags = [...ts.getPreEmitDiagnostics(program).filter((d) => d.file && isSdkFile(d.file.fileName)), ...result.diagnostics];
  if (diags.length) {
    throw new Error(ts.formatDiagnostics(diags, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
  }
  // The server's context (database, hub, chat …) is in the router type only as its `ctx`, which a client never reads.
  writeFileSync(join(tmp, 'server/trpc/context.d.ts'), '/** Left out of the client package: the server-side context. */\nexport type Context = object;\n');
}

function isSdkFile(file) {
  return !relative(sdk, file).startsWith('..') && !file.includes('/dist/');
}

async function bundleDeclarations(tmp) {
  // First the router types alone, then every entry with them as the import `./router.js`, so they are in one file.
  const routerDts = join(tmp, 'client-sdk/router.d.ts');
  await rollupDts({ router: routerDts }, null);
  // Multipart-only upload procedures take a Node Buffer; as Uint8Array (its base) the types need no @types/node.
  const routerOut = join(out, 'router.d.ts');
  writeFileSync(routerOut, readFileSync(routerOut, 'utf8').replace(/\bBuffer<ArrayBufferLike>/g, 'Uint8Array'));
  const input = {};
  for (const e of entries) input[e.name] = join(tmp, 'client-sdk', e.src.replace(/\.ts$/, '.d.ts'));
  await rollupDts(input, routerDts);
  // Relative imports as `./x.js` (ES) / `./x.cjs` (CommonJS twins), which TypeScript maps to the declarations.
  for (const f of readdirSync(out).filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(join(out, f), 'utf8');
    const rel = (ext) => text.replace(/(from\s+|import\()(['"])(\.\/[^'"]+?)\.(?:d\.ts|js)\2/g, `$1$2$3.${ext}$2`);
    writeFileSync(join(out, f), rel('js'));
    writeFileSync(join(out, f.replace(/\.d\.ts$/, '.d.cts')), rel('cjs'));
  }
}

async function rollupDts(input, routerDts) {
  const routerAsImport = {
    name: 'router-as-import',
    resolveId(id, importer) {
      if (!routerDts || !importer || !id.startsWith('.')) return null;
      const target = resolve(dirname(importer), id).replace(/\.(d\.ts|js|ts)$/, '');
      return target === routerDts.replace(/\.d\.ts$/, '') ? { id: './router.js', external: true } : null;
    },
  };
  const bundle = await rollup({
    input,
    plugins: [routerAsImport, dts({ respectExternal: false })],
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
    makeAbsoluteExternalsRelative: false,
    onwarn: (w, warn) => { if (w.code !== 'CIRCULAR_DEPENDENCY') warn(w); },
  });
  await bundle.write({ dir: out, format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'shared-[hash].d.ts' });
  await bundle.close();
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const tmp = join(out, '.types');
try {
  await buildJs();
  emitDeclarations(tmp);
  await bundleDeclarations(tmp);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const made = readdirSync(out).sort();
const server = made.filter((f) => /\.c?js$/.test(f) && /from\s*["'][^"']*server\/|require\(["'][^"']*server\//.test(readFileSync(join(out, f), 'utf8')));
if (server.length) throw new Error(`built files import server/: ${server.join(', ')}`);
console.log(`built ${entries.map((e) => e.name).join(', ')} into ${relative(process.cwd(), out) || '.'}: ${made.join(' ')}`);
