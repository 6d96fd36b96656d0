/**
 * postgres.js is reached through its documented API only (issue 28): no stand-in that forwards the
 * members of an instance, no query handlers, connection objects or hooks of its own `begin`. Code
 * that leans on a library's internals breaks on a patch release, so the dependency had to be
 * pinned; this test keeps the store off them, and the dependency a range.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

/** What only postgres.js's own code should touch, with the reason a reader gets when it shows up. */
const internals: [RegExp, string][] = [
  [/\bonexecute\b/, 'onexecute is the hook of postgres.js\'s own begin()'],
  [/\.handler\b/, 'a query\'s handler is internal'],
  [/\bnew Proxy\(/, 'a Proxy over a postgres.js instance or query'],
  [/'(?:CLOSE|END|PostgresError|largeObject)'\s*,/, 'a list of instance members forwarded by a stand-in'],
  [/\.onclose\s*=/, 'a connection object\'s onclose'],
  [/\.terminate\(\)/, 'a connection object\'s terminate()'],
];

t.test('no module of the server uses postgres.js internals', async (t) => {
  const found: string[] = [];
  for (const file of sources(join(root, 'server'))) {
    const text = readFileSync(file, 'utf8');
    if (!/from 'postgres'|store\/db\.ts'|from '\.\/db\.ts'/.test(text)) continue; // only code that handles database connections
    text.split('\n').forEach((line, i) => {
      for (const [pattern, why] of internals) if (pattern.test(line)) found.push(`${relative(root, file)}:${i + 1}: ${why}: ${line.trim()}`);
    });
  }
  t.same(found, [], found.join('\n'));
});

t.test('postgres is a version range, not one exact version', async (t) => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const range: string = pkg.dependencies.postgres;
  t.match(range, /^[~^]\d+\.\d+\.\d+$/, `postgres ${range}`);
});
