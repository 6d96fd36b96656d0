import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// What the SDK and the board may take from server/: nothing that runs. Shared pieces live in
// contract/. The one exception is a type: the router itself, whose procedures tRPC's client infers
// every input and output from, cannot move to contract/ (it is the server's router), so
// client-sdk/router.ts names it with `import type`, which TypeScript erases. This reads every
// import of their sources and holds them to that; package.test.ts checks the built package too.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((f) => !f.includes('/dist/') && !f.includes('/node_modules/'));
}

/** Every `import … from '…'`, `export … from '…'` and `import('…')` of `text`: its specifier and whether it is type-only. */
function importsOf(text: string): { spec: string; typeOnly: boolean; line: string }[] {
  const found: { spec: string; typeOnly: boolean; line: string }[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;'"]*?\bfrom\s+['"]([^'"]+)['"]/gm)) {
    found.push({ spec: m[3], typeOnly: Boolean(m[2]), line: m[0].trim() });
  }
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push({ spec: m[1], typeOnly: false, line: m[0].trim() });
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ spec: m[1], typeOnly: false, line: m[0] });
  return found;
}

const serverDir = join(root, 'server') + '/';
const reachesServer = (file: string, spec: string) => spec.startsWith('.') && resolve(root, dirname(file), spec).startsWith(serverDir);

for (const dir of ['client-sdk', 'board/src']) {
  t.test(`${dir}: no import of server/ code`, async (t) => {
    const files = sources(dir);
    t.ok(files.length > 10, `${files.length} source files read`);
    const typeImports: string[] = [];
    const valueImports: string[] = [];
    for (const file of files) {
      for (const i of importsOf(readFileSync(join(root, file), 'utf8'))) {
        if (!reachesServer(file, i.spec)) continue;
        (i.typeOnly ? typeImports : valueImports).push(`${file}: ${i.line}`);
      }
    }
    t.same(valueImports, [], 'nothing of server/ is imported as a value (shared code belongs in contract/)');
    t.same(typeImports, dir === 'client-sdk' ? ["client-sdk/router.ts: import type { AppRouter } from '../server/trpc/app-router.ts'"] : [],
      dir === 'client-sdk' ? 'the only type from server/ is the router, in client-sdk/router.ts' : 'the board takes not even a type from server/');
  });
}

t.test('the reader sees what it must', async (t) => {
  const probe = [
    "import { a } from '../server/x.ts';",
    "import type { B } from '../server/y.ts';",
    "export { c } from '../server/z.ts';",
    "const m = await import('../server/w.ts');",
    "import '../server/side-effect.ts';",
  ].join('\n');
  const seen = importsOf(probe).filter((i) => reachesServer('client-sdk/probe.ts', i.spec));
  t.same(seen.map((i) => [i.spec, i.typeOnly]), [
    ['../server/x.ts', false], ['../server/y.ts', true], ['../server/z.ts', false], ['../server/side-effect.ts', false], ['../server/w.ts', false],
  ], 'value, type, re-export, bare and dynamic imports are all found');
  t.notOk(reachesServer('client-sdk/probe.ts', '../contract/topics.ts'), 'contract/ is not server/');
});
