import t from 'tap';
import { fileURLToPath } from 'node:url';
import { areaOf, circles, importGraph, type Edge } from './import-graph.ts';

/**
 * The layers a newcomer can see (issue 28): contract/ holds what server, SDK and board share and
 * imports nothing (no file of the project outside it, no package); the SDK and the board run
 * nothing of the server (they may name its types: AppRouter); the server runs nothing of the SDK
 * or the board (it bundles the board's sources as files, not imports); no import circle spans
 * two folders. The board is a client of the SDK, so board -> client-sdk is a layer downwards.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const { files, edges, packages } = importGraph(root, ['contract', 'client-sdk', 'board/src', 'server']);
const runtime = edges.filter((e) => !e.typeOnly);
const show = (list: Edge[]) => list.map((e) => `${e.from} -> ${e.to}${e.typeOnly ? ' (type)' : ''}`);

/** Which areas each area may import at run time (besides itself). */
const mayRun: Record<string, string[]> = {
  contract: [],
  'client-sdk': ['contract'],
  board: ['contract', 'client-sdk'],
  server: ['contract'],
};

t.test('the graph is read', async (t) => {
  t.ok(files.length > 300, `${files.length} files read`);
  t.ok(edges.some((e) => e.from === 'server/cli.ts' && e.to === 'server/config.ts' && !e.typeOnly), 'a runtime import is seen');
  t.ok(edges.some((e) => e.from === 'client-sdk/router.ts' && e.to === 'server/trpc/app-router.ts' && e.typeOnly), 'a type import is seen as one');
  t.ok(edges.some((e) => e.from === 'server/cli.ts' && e.to === 'server/main.ts' && !e.typeOnly), 'a dynamic import is seen');
});

t.test('contract/ imports nothing outside itself, not even types or packages', async (t) => {
  t.ok(files.some((f) => areaOf(f) === 'contract'), 'contract/ has files');
  t.same(show(edges.filter((e) => areaOf(e.from) === 'contract' && areaOf(e.to) !== 'contract')), []);
  t.same(packages.filter((p) => areaOf(p.from) === 'contract').map((p) => `${p.from} -> ${p.spec}`), []);
});

t.test('each area runs only the areas below it', async (t) => {
  for (const [area, allowed] of Object.entries(mayRun)) {
    const wrong = runtime.filter((e) => areaOf(e.from) === area && areaOf(e.to) !== area && !allowed.includes(areaOf(e.to)));
    t.same(show(wrong), [], `${area} runs only ${[area, ...allowed].join(', ')}`);
  }
});

t.test('the SDK and the board name nothing of the server but its types', async (t) => {
  const wrong = runtime.filter((e) => ['client-sdk', 'board'].includes(areaOf(e.from)) && areaOf(e.to) === 'server');
  t.same(show(wrong), []);
});

t.test('the SDK reaches into server/ only for AppRouter, in router.ts: shared types live in contract/', async (t) => {
  const intoServer = edges.filter((e) => areaOf(e.from) === 'client-sdk' && areaOf(e.to) === 'server');
  t.same(show(intoServer), ['client-sdk/router.ts -> server/trpc/app-router.ts (type)']);
});

t.test('no import circle spans two folders', async (t) => {
  const between = runtime.filter((e) => areaOf(e.from) !== areaOf(e.to)).map((e) => ({ from: areaOf(e.from), to: areaOf(e.to), typeOnly: false }));
  t.same(circles(between), [], 'the folders import each other in one direction');
  const spanning = circles(runtime).filter((c) => new Set(c.map(areaOf)).size > 1);
  t.same(spanning.map((c) => `${c.length} files across ${[...new Set(c.map(areaOf))].join(', ')}: ${c.slice(0, 8).join(', ')}${c.length > 8 ? ' …' : ''}`), []);
});
