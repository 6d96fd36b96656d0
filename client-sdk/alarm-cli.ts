/**
 * `dispatch-terminal alarm …`: the command line of the terminal alarm client. The bin
 * (server/bin/dispatch-terminal.mjs) runs this entry's compiled copy (dist/alarm/alarm-cli.js) for
 * the `alarm` command and the server's CLI for every other one, so a station PC's alarm client loads
 * nothing of the server. Runs until Ctrl-C or SIGTERM (exit 0), or until its session cannot sign
 * in (an error line saying how to get a new link, exit 1). Needs no database and no configuration:
 * everything comes from the link and the state file. German or English: `--lang`, else the locale.
 */
import { parseArgs } from 'node:util';
import { startAlarmTerminal, logoutSaved, testTone } from './alarm-terminal.ts';
import { defaultStateFile } from './alarm-session.ts';
import { parsePlayer } from './alarm-tone.ts';
import { BilingualError, both, pickLang, textOf, words, type Lang } from './alarm-words.ts';

/** The usage text in English (`words.de.usage` is the German one). */
export const alarmUsage = words.en.usage;

class UsageError extends BilingualError {}

const options = {
  player: { type: 'string' }, state: { type: 'string' }, logout: { type: 'boolean' }, 'test-tone': { type: 'boolean' },
  'no-speech': { type: 'boolean' }, lang: { type: 'string' }, help: { type: 'boolean', short: 'h' },
} as const;

/** The language asked for in `argv` (or the locale's), before the arguments are checked. */
function langOf(argv: string[]): Lang {
  const i = argv.findIndex((a) => a === '--lang' || a.startsWith('--lang='));
  const flag = i < 0 ? undefined : argv[i].includes('=') ? argv[i].slice('--lang='.length) : argv[i + 1];
  try {
    return pickLang(flag);
  } catch {
    return pickLang(undefined);
  }
}

/** Runs `alarm` with its arguments (those after the word `alarm`). */
export async function alarmMain(argv: string[]): Promise<void> {
  const { values, positionals: args } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  const lang = pickLang(values.lang);
  if (values.help) return console.log(words[lang].usage);
  if (args.length > 1) throw new UsageError(both((w) => w.oneLink(args.length)));
  const stateFile = values.state ?? defaultStateFile();
  const player = values.player === undefined ? undefined : parsePlayer(values.player);
  if (values.logout) return console.log(await logoutSaved(stateFile, lang));
  if (values['test-tone']) return console.log(await testTone(player, lang));
  const client = startAlarmTerminal({ link: args[0], stateFile, player, lang, speak: values['no-speech'] ? false : undefined });
  const stop = () => client.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await client.done;
  process.exit(0);
}

/** One clear line; the stack only with LOG_LEVEL=debug. */
function describeFailure(err: any, lang: Lang): string {
  if (err?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || err?.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${err.message}\n\n${words[lang].usage}`;
  return textOf(err, lang);
}

/** `alarmMain`, with a failure printed as `error: …` (`Fehler: …`) and exit code 1: what the bin calls. */
export function runAlarmCli(argv: string[]): Promise<void> {
  return alarmMain(argv).catch((err) => {
    const lang = langOf(argv);
    console.error(`${words[lang].error}: ${describeFailure(err, lang)}`);
    if (process.env.LOG_LEVEL === 'debug') console.error(err);
    process.exit(1);
  });
}
