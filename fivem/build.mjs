#!/usr/bin/env node
/**
 * Builds the FiveM resource `dist/fivem/dispatch-terminal/` and `dist/fivem/dispatch-terminal.zip`
 * (or into `--out <dir>`): `server.js` is fivem/server/main.ts with the SDK's game bridge and medic
 * queue bundled by esbuild as one dependency-free CommonJS file for FiveM's Node 16; the Lua files,
 * the manifest and the README are copied from fivem/resource/ (the manifest gets the version).
 * Run from the repository: `npm run build:fivem`.
 */
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zip } from './zip.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : join(root, 'dist/fivem');
const NAME = 'dispatch-terminal';
const dir = join(out, NAME);
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;

rmSync(dir, { recursive: true, force: true });
rmSync(join(out, `${NAME}.zip`), { force: true });
mkdirSync(dir, { recursive: true });

const result = await build({
  entryPoints: [join(here, 'server/main.ts')], outfile: join(dir, 'server.js'),
  bundle: true, platform: 'node', format: 'cjs', target: 'node16', charset: 'utf8', legalComments: 'none', logLevel: 'warning',
  banner: { js: `// ${NAME} ${version}: built by fivem/build.mjs from the Dispatch Terminal SDK (client-sdk/game, client-sdk/medic). Do not edit.` },
  metafile: true,
});
// Self-contained: only Node's built-ins may stay imports (FiveM resources have no node_modules).
const external = Object.values(result.metafile.inputs).flatMap((i) => i.imports).filter((i) => i.external && !/^(node:)?[a-z_]+$/.test(i.path));
if (external.length) throw new Error(`server.js would need packages: ${external.map((i) => i.path).join(', ')}`);

for (const f of readdirSync(join(here, 'resource'))) {
  const text = readFileSync(join(here, 'resource', f), 'utf8');
  writeFileSync(join(dir, f), f === 'fxmanifest.lua' ? text.replace('@VERSION@', version) : text);
}

const files = readdirSync(dir).sort().map((f) => ({ name: `${NAME}/${f}`, data: readFileSync(join(dir, f)) }));
writeFileSync(join(out, `${NAME}.zip`), zip(files));
console.log(`built ${relative(process.cwd(), dir) || dir} (${files.map((f) => f.name.slice(NAME.length + 1)).join(' ')}) and ${NAME}.zip`);
