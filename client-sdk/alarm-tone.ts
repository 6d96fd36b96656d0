/**
 * The alarm tone of the terminal client: a short two-tone WAV generated in code (no binary assets),
 * played through the system's player (`paplay`, `aplay` or `afplay`, the first found on PATH) or a
 * command given by the user; the terminal bell when there is none or the player fails.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { both, type Text } from './alarm-words.ts';

/** The players tried in this order, each with the arguments that go before the file. */
const systemPlayers: string[][] = [['paplay'], ['aplay', '-q'], ['afplay']];

/**
 * A 16-bit mono PCM WAV of about one second: 880 Hz and 660 Hz alternating, four quarter-second
 * notes, each faded in and out over 10 ms so the speaker does not click.
 */
export function alarmToneWav(rate = 16_000): Buffer {
  const note = Math.round(rate / 4);
  const ramp = Math.round(rate / 100);
  const samples = note * 4;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28); // bytes per second
  wav.writeUInt16LE(2, 32); // bytes per frame
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    const n = Math.floor(i / note);
    const t = i % note;
    const envelope = Math.min(1, t / ramp, (note - 1 - t) / ramp);
    const value = Math.sin((2 * Math.PI * (n % 2 ? 660 : 880) * i) / rate) * envelope * 0.6;
    wav.writeInt16LE(Math.round(value * 32767), 44 + i * 2);
  }
  return wav;
}

/** The first system player on `path` (a PATH value) as the command and arguments before the file; null when none is installed. */
export function systemPlayer(path = process.env.PATH ?? ''): string[] | null {
  for (const argv of systemPlayers) {
    const found = onPath(argv[0], path);
    if (found) return [found, ...argv.slice(1)];
  }
  return null;
}

/** Where `program` is on `path` (executable), or null. */
export function onPath(program: string, path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return join(dir, program);
    } catch {
      // not here
    }
  }
  return null;
}

/** `--player "mpv --really-quiet"` as a command and its arguments (split at spaces; the tone file is appended). */
export function parsePlayer(command: string): string[] {
  const argv = command.trim().split(/\s+/).filter(Boolean);
  if (!argv.length) throw new Error('--player needs a command');
  return argv;
}

export interface TonePlayerOptions {
  /** A command and its arguments, the tone file appended; `null`: the bell only; absent: the first system player. */
  player?: string[] | null;
  /** Rings the terminal bell (default: `\x07` to stdout). */
  bell?: () => void;
  /** A player that could not run or failed (the bell rang instead): English, and in both languages. */
  warn?: (message: string, both: Text) => void;
}

/**
 * Plays the tone: writes it once to a private temporary directory, runs the player for each
 * `play()` (a failure rings the bell instead), and removes the file on `close()`.
 */
export function createTonePlayer(opts: TonePlayerOptions = {}) {
  const player = opts.player === undefined ? systemPlayer() : opts.player;
  const bell = opts.bell ?? (() => process.stdout.write('\x07'));
  const dir = player ? mkdtempSync(join(tmpdir(), 'dispatch-terminal-')) : null;
  const file = dir ? join(dir, 'alarm.wav') : null;
  if (file) writeFileSync(file, alarmToneWav(), { mode: 0o600 });

  function failed(why: Text) {
    const text = both((w, lang) => w.playerFailed(player![0], why[lang]));
    opts.warn?.(text.en, text);
    bell();
  }

  return {
    /** What plays the tone, for the start-up line (English; `describeText` in both languages). */
    describe: player ? player.join(' ') : 'the terminal bell (no paplay, aplay or afplay found)',
    describeText: player ? both(() => player.join(' ')) : both((w) => w.bell),
    /** Starts the tone; the promise resolves when it has played (nobody needs to wait for it). */
    play(): Promise<void> {
      if (!player || !file) {
        bell();
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        let reported = false; // 'exit' may follow 'error': one bell per play
        const fail = (why: Text) => {
          if (!reported) failed(why);
          reported = true;
          resolve();
        };
        const child = spawn(player[0], [...player.slice(1), file], { stdio: 'ignore' });
        child.on('error', (err) => fail(both((w) => w.couldNotRun(err.message))));
        child.on('exit', (code, signal) => {
          if (code !== 0 && code !== null) fail(both((w) => w.exitedWith(code)));
          else if (signal) fail(both((w) => w.killed(signal)));
          else resolve();
        });
      });
    },
    close(): void {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TonePlayer = ReturnType<typeof createTonePlayer>;
