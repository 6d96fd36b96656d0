/**
 * The spoken announcement of the terminal alarm client: `espeak-ng` (German voice `de` or English
 * `en`) when it is on PATH, or a command the caller names; nothing when there is none. Each
 * announcement is one run of the program with the text as its last argument.
 */
import { spawn } from 'node:child_process';
import { onPath } from './alarm-tone.ts';
import { both, type Lang, type Text } from './alarm-words.ts';

export interface SpeakerOptions {
  /** Command and arguments before the voice and text; `false`: no announcements; absent: espeak-ng if installed. */
  command?: string[] | false;
  lang: Lang;
  /** An announcement that could not be made (the tone plays anyway). */
  warn?: (text: Text) => void;
  /** Longest an announcement may take before it is cut off (default 20 s). */
  timeoutMs?: number;
}

export function createSpeaker(opts: SpeakerOptions) {
  const found = opts.command === undefined ? onPath('espeak-ng') : null;
  const command = opts.command === false ? null : opts.command ?? (found ? [found] : null);
  return {
    /** What speaks, for the start-up line. */
    describeText: command ? both((w) => w.speechThrough(command.join(' '))) : both((w) => (opts.command === false ? w.speechOff : w.noSpeech)),
    /** Speaks `text`; resolves when it has been spoken (true), or at once (false) when it cannot be. */
    say(text: string): Promise<boolean> {
      if (!command) return Promise.resolve(false);
      return new Promise((resolve) => {
        let settled = false;
        const done = (ok: boolean, why?: Text) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (why) opts.warn?.(both((w, lang) => w.speechFailed(why[lang])));
          resolve(ok);
        };
        const child = spawn(command[0], [...command.slice(1), '-v', opts.lang, text], { stdio: 'ignore' });
        const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
        child.on('error', (err) => done(false, both((w) => w.couldNotRun(err.message))));
        child.on('exit', (code, signal) => {
          if (code === 0) done(true);
          else done(false, both((w) => (signal ? w.killed(signal) : w.exitedWith(code ?? -1))));
        });
      });
    },
  };
}

export type Speaker = ReturnType<typeof createSpeaker>;

/** "RTW-1" → "RTW 1": the voice reads the number as a number, not "minus one". */
export function speakableCallsign(callsign: string): string {
  return callsign.replace(/[-_/]+/g, ' ').trim();
}
