/**
 * `dispatch-terminal alarm`: the alarm client of a station PC in a terminal. Signs in once with a
 * one-time login link (the session is kept in a state file), prints every alarm with its time and
 * callsign, plays a tone for it, and prints connection changes, until stopped or until the session
 * ends (then it says how to get a new link).
 */
import { jitteredBackoff } from './live.ts';
import { watchAlarms, type AlarmWatchOptions } from './alarm-client.ts';
import { forgetSession, logout, openAlarmSession, readSavedSession } from './alarm-session.ts';
import { createTonePlayer } from './alarm-tone.ts';

export interface AlarmTerminalOptions {
  /** One-time login link; optional once `stateFile` holds a session. */
  link?: string;
  stateFile: string;
  /** Player command and arguments (the tone file is appended); `null`: the terminal bell; absent: paplay, aplay or afplay. */
  player?: string[] | null;
  /** Writes one line of output (default: stdout). */
  write?: (line: string) => void;
  retryDelayMs?: (attempt: number) => number;
  heartbeatMs?: number;
  WebSocket?: AlarmWatchOptions['WebSocket'];
}

/** Local time as `YYYY-MM-DD HH:MM:SS`. */
export function stamp(at = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())} ${p(at.getHours())}:${p(at.getMinutes())}:${p(at.getSeconds())}`;
}

/**
 * Runs the alarm client. `done` resolves after `stop()`, and rejects with an AlarmSessionError
 * (whose message says what to do) when the link or the session cannot sign in (any more).
 */
export function startAlarmTerminal(opts: AlarmTerminalOptions) {
  const write = opts.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const say = (text: string) => write(`${stamp()}  ${text}`);
  const retryDelayMs = opts.retryDelayMs ?? jitteredBackoff;
  const stopping = new AbortController();
  let watch: ReturnType<typeof watchAlarms> | null = null;

  const done = (async () => {
    const session = await openAlarmSession({ link: opts.link, stateFile: opts.stateFile, notice: say, retryDelayMs, signal: stopping.signal })
      .catch((err) => {
        if (stopping.signal.aborted) return null; // stopped while waiting for the server
        throw err;
      });
    if (!session || stopping.signal.aborted) return;
    const tone = createTonePlayer({ player: opts.player, warn: say });
    say(`signed in as ${session.nickname} in ${session.guild} (guild ${session.guildId}); session kept in ${opts.stateFile}`);
    say(`alarm tone through ${tone.describe}`);
    try {
      watch = watchAlarms({
        session, retryDelayMs, heartbeatMs: opts.heartbeatMs, WebSocket: opts.WebSocket, onNotice: say,
        onAlarm: (callsigns) => {
          const at = stamp();
          for (const callsign of callsigns) write(`${at}  ALARM  ${callsign}`);
          void tone.play();
        },
      });
      await watch.done;
    } finally {
      tone.close();
    }
  })();

  return {
    done,
    stop() {
      stopping.abort();
      watch?.close();
    },
  };
}

/** `alarm --logout`: ends the saved session on the server and forgets it. */
export async function logoutSaved(stateFile: string): Promise<string> {
  const saved = readSavedSession(stateFile);
  if (!saved) return `no saved session in ${stateFile}`;
  await logout(saved);
  forgetSession(stateFile);
  return `signed out of ${saved.url}; removed ${stateFile}`;
}

/** `alarm --test-tone`: plays the tone once, to check the speakers. */
export async function testTone(player: string[] | null | undefined): Promise<string> {
  const tone = createTonePlayer({ player, warn: (text) => process.stdout.write(`${text}\n`) });
  try {
    await tone.play();
    return `played the alarm tone through ${tone.describe}`;
  } finally {
    tone.close();
  }
}
