/**
 * `dispatch-terminal alarm …`: the command line of the terminal alarm client. The bin
 * (server/bin/dispatch-terminal.mjs) runs this entry's compiled copy (dist/alarm/alarm-cli.js) for
 * the `alarm` command and the server's CLI for every other one, so a station PC's alarm client loads
 * nothing of the server. Runs until Ctrl-C or SIGTERM (exit 0), or until its session cannot sign
 * in (an error line saying how to get a new link, exit 1). Needs no database and no configuration:
 * everything comes from the link and the state file.
 */
import { parseArgs } from 'node:util';
import { startAlarmTerminal, logoutSaved, testTone } from './alarm-terminal.ts';
import { defaultStateFile } from './alarm-session.ts';
import { parsePlayer } from './alarm-tone.ts';

export const alarmUsage = `usage: dispatch-terminal alarm [<login-link>] [--player <cmd>] [--state <file>]
       dispatch-terminal alarm --logout | --test-tone

  alarm client for a station PC: prints and rings every unit alarm; needs a link once (the session
  is kept in --state, default ~/.config/dispatch-terminal/alarm.json); no database needed.
  --logout ends the saved session, --test-tone plays the tone once.`;

class UsageError extends Error {}

const options = {
  player: { type: 'string' }, state: { type: 'string' }, logout: { type: 'boolean' }, 'test-tone': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Runs `alarm` with its arguments (those after the word `alarm`). */
export async function alarmMain(argv: string[]): Promise<void> {
  const { values, positionals: args } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  if (values.help) return console.log(alarmUsage);
  if (args.length > 1) throw new UsageError(`alarm takes one login link, got ${args.length} arguments`);
  const stateFile = values.state ?? defaultStateFile();
  const player = values.player === undefined ? undefined : parsePlayer(values.player);
  if (values.logout) return console.log(await logoutSaved(stateFile));
  if (values['test-tone']) return console.log(await testTone(player));
  const client = startAlarmTerminal({ link: args[0], stateFile, player });
  const stop = () => client.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await client.done;
  process.exit(0);
}

/** One clear line; the stack only with LOG_LEVEL=debug. */
function describeFailure(err: any): string {
  if (err?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || err?.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${err.message}\n\n${alarmUsage}`;
  return err?.message ?? String(err);
}

/** `alarmMain`, with a failure printed as `error: …` and exit code 1: what the bin calls. */
export function runAlarmCli(argv: string[]): Promise<void> {
  return alarmMain(argv).catch((err) => {
    console.error(`error: ${describeFailure(err)}`);
    if (process.env.LOG_LEVEL === 'debug') console.error(err);
    process.exit(1);
  });
}
