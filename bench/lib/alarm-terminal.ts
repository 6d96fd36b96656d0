/**
 * The terminal alarm client of `bench alarm`: client-sdk/alarm-cli.ts as `dispatch-terminal alarm`
 * runs it (arguments from argv), with every stdout line prefixed by the moment it was written
 * (`clock()` and a space), so the bench reads when the client showed what, not when the pipe got
 * to it. Its output is a pipe, so it writes plain lines (no status line drawn).
 */
import { clock } from './alarm-clock.ts';

const write = process.stdout.write.bind(process.stdout) as (chunk: string) => boolean;
process.stdout.write = ((chunk: string | Uint8Array) => {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return write(text.replace(/^(?=.)/gm, () => `${clock().toFixed(1)} `));
}) as typeof process.stdout.write;

// The bench stops it with SIGTERM (the client's own clean stop); an orphan stops by itself.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.exit(0), 1000).unref();

const { runAlarmCli } = await import('../../client-sdk/alarm-cli.ts');
await runAlarmCli(process.argv.slice(2));
