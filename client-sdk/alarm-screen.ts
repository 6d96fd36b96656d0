/**
 * The terminal alarm client's output: lines that stay (alarms, notices) and one status line that
 * says whether alarms get through ("Alarm bereit" / "Alarmierung gestört — keine Verbindung seit
 * 12 s"). On a terminal the status line is the bottom line, redrawn in place every second while
 * alarms are down; elsewhere (a pipe, a log file, a `write` callback) each change of the status is
 * one line, so logs do not fill with counters.
 */
import type { Lang, Words } from './alarm-words.ts';
import { words } from './alarm-words.ts';

/** Whether alarms get through now, and since when they do not. */
export type AlarmHealth =
  | { kind: 'connecting'; url: string }
  | { kind: 'ready' }
  | { kind: 'no-connection'; since: number }
  | { kind: 'no-database'; since: number };

export function statusText(w: Words, h: AlarmHealth, now = Date.now()): string {
  switch (h.kind) {
    case 'connecting': return w.connecting(h.url);
    case 'ready': return w.ready;
    case 'no-connection': return w.noConnection(Math.max(0, Math.floor((now - h.since) / 1000)));
    case 'no-database': return w.noDatabase(Math.max(0, Math.floor((now - h.since) / 1000)));
  }
}

export interface ScreenOptions {
  lang: Lang;
  /** Writes one finished line (no status line is drawn then). Default: stdout. */
  write?: (line: string) => void;
  /** The terminal to draw on when `write` is not given (default process.stdout). */
  stream?: NodeJS.WriteStream;
}

export function createScreen(opts: ScreenOptions) {
  const w = words[opts.lang];
  const stream = opts.stream ?? process.stdout;
  const tty = !opts.write && !!stream.isTTY;
  const writeLine = opts.write ?? ((line: string) => stream.write(`${line}\n`));
  let health: AlarmHealth | null = null;
  let drawn = '';

  const colour = (h: AlarmHealth, text: string) => (h.kind === 'ready' ? `\x1b[1;32m${text}\x1b[0m` : `\x1b[1;31m${text}\x1b[0m`);
  function draw() {
    if (!tty || !health) return;
    drawn = colour(health, statusText(w, health));
    stream.write(`\r\x1b[2K${drawn}`);
  }
  // While alarms are down the seconds count up on the terminal.
  const ticker = setInterval(() => {
    if (health && health.kind !== 'ready') draw();
  }, 1000);
  ticker.unref();

  return {
    words: w,
    /** A line that stays, above the status line. */
    line(text: string) {
      if (!tty) return writeLine(text);
      stream.write(`\r\x1b[2K${text}\n${drawn}`);
    },
    /** The status now; a change of kind is also a line where no status line is drawn. */
    status(next: AlarmHealth, stamp: () => string) {
      const changed = health?.kind !== next.kind;
      health = next;
      if (tty) draw();
      else if (changed) writeLine(`${stamp()}  ${statusText(w, next)}`);
    },
    get health() {
      return health;
    },
    /** The terminal bell (not into a `write` callback: it has no terminal). */
    bell() {
      if (!opts.write) stream.write('\x07');
    },
    close() {
      clearInterval(ticker);
      if (tty && drawn) stream.write('\n');
    },
  };
}

export type Screen = ReturnType<typeof createScreen>;
