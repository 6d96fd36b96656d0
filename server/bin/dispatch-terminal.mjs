#!/usr/bin/env node
// Runs the compiled server and CLI (dist/, made by server/build.mjs). In a checkout with the
// sources, a missing or stale build is made first, with one line on stderr saying so; a production
// install (no sources, no esbuild) runs dist/ as it is, or says why it cannot.
import { ensureBuilt, targets } from '../build-check.mjs';

let manifest;
try {
  manifest = await ensureBuilt(targets.product, (line) => process.stderr.write(`${line}\n`));
} catch (err) {
  process.stderr.write(`error: ${err?.message ?? err}\n`);
  process.exit(1);
}
process.env.DT_CLI = '1';
await import(new URL(`../../dist/${manifest.server}`, import.meta.url).href);
