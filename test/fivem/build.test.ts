import t from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { buildResource } from './helpers.ts';
import { ensureDebianPackages } from '../helpers/debian.ts';
// @ts-expect-error: a plain ES module of the build, without types
import { crc32, tableCrc32, zip } from '../../fivem/zip.mjs';

// Issue 31, a drop-in resource: `npm run build:fivem` (fivem/build.mjs) makes dist/fivem/dispatch-terminal/
// and its zip: the manifest (cerulean, gta5, provide 'ps-dispatch', config.lua shared, server.js and
// server.lua on the server, client.lua on the client), server.js one CommonJS file that needs no package,
// the README, and no API key anywhere a client gets.
const out = buildResource(t);
const dir = join(out, 'dispatch-terminal');
const file = (f: string) => readFileSync(join(dir, f), 'utf8');

t.test('the resource folder', async (t) => {
  t.same(readdirSync(dir).sort(), ['README.md', 'client.lua', 'config.lua', 'fxmanifest.lua', 'server.js', 'server.lua']);
  const manifest = file('fxmanifest.lua');
  t.match(manifest, /^fx_version 'cerulean'$/m);
  t.match(manifest, /^game 'gta5'$/m);
  t.match(manifest, /^provide 'ps-dispatch'$/m, 'answers for ps-dispatch');
  t.match(manifest, /^shared_script 'config\.lua'$/m);
  t.match(manifest, /server_scripts \{\s*'server\.js',\s*'server\.lua',\s*\}/, 'server.js first: its handler hears server.lua\'s config');
  t.match(manifest, /^client_script 'client\.lua'$/m);
  t.match(manifest, new RegExp(`^version '${JSON.parse(readFileSync('package.json', 'utf8')).version.replace(/\./g, '\\.')}'$`, 'm'), 'the version filled in');
});

t.test('server.js: one CommonJS file for Node 16 that needs only Node\'s built-ins', async (t) => {
  const js = file('server.js');
  const required = [...js.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
  t.ok(required.length > 0);
  t.same(required.filter((r) => !/^node:[a-z]+$/.test(r)), [], `only node: built-ins (${[...new Set(required)].join(', ')})`);
  t.notMatch(js, /^\s*(import|export)\s/m, 'no ES module syntax');
  t.notMatch(js, /structuredClone\(/, 'nothing newer than Node 16 that esbuild would keep (the Node 16 test runs it)');
  t.match(js, /dispatch_terminal_key/, 'the key is read from the convar');
});

t.test('the key never reaches a client: not in config.lua or client.lua, and a convar `set` on the server', async (t) => {
  for (const f of ['config.lua', 'client.lua']) {
    t.notMatch(file(f), /GetConvar|stmp_[a-z0-9]/i, `${f} reads no convar and holds no key`);
  }
  t.match(file('README.md'), /set dispatch_terminal_key "stmp_\.\.\."/, 'the README says `set`');
  t.match(file('README.md'), /nie `setr`|never `setr`/);
});

t.test('the README: German and English, five installation steps each', async (t) => {
  const readme = file('README.md');
  for (const heading of ['### Installation in fünf Schritten', '### Installation in five steps']) {
    const part = readme.slice(readme.indexOf(heading));
    t.ok(readme.includes(heading), heading);
    const steps = part.split('\n###')[0].split('\n\n').join('\n').match(/^\d\. /gm) ?? [];
    t.same(steps, ['1. ', '2. ', '3. ', '4. ', '5. '], `${heading}: five steps`);
  }
});

t.test('the zip holds the folder, byte for byte', async (t) => {
  const zipFile = join(out, 'dispatch-terminal.zip');
  t.ok(existsSync(zipFile));
  ensureDebianPackages([['unzip', 'unzip']]); // the zip is checked by Info-ZIP's own reader
  const listed = execFileSync('unzip', ['-Z1', zipFile], { encoding: 'utf8' }).trim().split('\n');
  t.same(listed, readdirSync(dir).sort().map((f) => `dispatch-terminal/${f}`));
  t.match(execFileSync('unzip', ['-t', zipFile], { encoding: 'utf8' }), /No errors detected/);
  for (const f of readdirSync(dir)) {
    t.ok(execFileSync('unzip', ['-p', zipFile, `dispatch-terminal/${f}`]).equals(readFileSync(join(dir, f))), f);
  }
});

t.test('the zip writer: CRC-32 with and without node:zlib, deflated and stored entries', async (t) => {
  const check = Buffer.from('123456789');
  t.equal(tableCrc32(check), 0xcbf43926, 'the IEEE check value by table');
  t.equal(crc32(check), 0xcbf43926);
  const random = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7919) % 251));
  t.equal(tableCrc32(random), zlib.crc32(random) >>> 0, 'the table agrees with zlib');
  const z: Buffer = zip([{ name: 'a.txt', data: Buffer.from('x'.repeat(1000)) }, { name: 'b.bin', data: Buffer.from([1, 2, 3]) }]);
  t.equal(z.readUInt16LE(8), 8, 'a compressible file is deflated');
  t.equal(z.readUInt32LE(z.length - 22), 0x06054b50, 'ends with the end-of-directory record');
  t.same(zip([{ name: 'a', data: Buffer.from('a') }]), zip([{ name: 'a', data: Buffer.from('a') }]), 'repeatable');
});
