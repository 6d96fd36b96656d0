#!/usr/bin/env node
// Runs the compiled server and CLI (dist/, made by server/build.mjs). In a checkout with the
// sources, a missing or stale build is made first, with one line on stderr saying so; a production
// install (no sources, no esbuild) runs dist/ as it is, or says why it cannot.
// `alarm` is the SDK's terminal alarm client (client-sdk/alarm-cli.ts), a build of its own: a
// station PC's alarm client loads nothing of the server.
import { ensureBuilt, targets } from '../build-check.mjs';

let manifest;
try {
  manifest = await ensureBuilt(targets.product, (line) => process.stderr.write(`${line}\n`));
} catch (err) {
  process.stderr.write(`error: ${err?.message ?? err}\n`);
  process.exit(1);
}
if (process.argv[2] === 'alarm') {
  const { runAlarmCli } = await import(new URL(`../../dist/${manifest.alarm}`, import.meta.url).href);
  await runAlarmCli(process.argv.slice(3));
} else {
  process.env.DT_CLI = '1';
  await import(new URL(`../../dist/${manifest.server}`, import.meta.url).href);
}
