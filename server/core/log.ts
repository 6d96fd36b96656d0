const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof levels;

export interface Log {
  debug(msg: string, data?: object): void;
  info(msg: string, data?: object): void;
  warn(msg: string, data?: object): void;
  error(msg: string, data?: object): void;
  /** One line per request (the access log), at info, never held back as a repeat; loggers without it use `info`. */
  access?(msg: string, data?: object): void;
}

export interface RepeatLimits {
  /** Lines of one message (level and text) written per window; the rest are counted. */
  burst: number;
  windowMs: number;
}

/** What the server's log lets through of one message: a fault that repeats it per request must not fill the disk. */
export const defaultRepeatLimits: RepeatLimits = { burst: 20, windowMs: 10_000 };

/**
 * One JSON line per entry on stderr, so stdout stays for what the CLI prints. A message repeated
 * more than `limits.burst` times within `limits.windowMs` is held back (see `limitRepeats`); debug
 * lines, asked for to see everything, never are.
 */
export function createLog(level: LogLevel, limits: RepeatLimits = defaultRepeatLimits): Log {
  const min = levels[level];
  const write = (lvl: LogLevel) => (msg: string, data?: object) => {
    process.stderr.write(JSON.stringify({ t: new Date().toISOString(), lvl, msg, ...data }, errorsWithStack) + '\n');
  };
  const limited = limitRepeats({ debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }, limits);
  const at = (lvl: Exclude<LogLevel, 'silent'>, to: (msg: string, data?: object) => void) => (levels[lvl] < min ? () => {} : to);
  return {
    debug: at('debug', write('debug')), info: at('info', limited.info), warn: at('warn', limited.warn), error: at('error', limited.error),
    access: at('info', write('info')),
  };
}

/** An Error in a line's data keeps its message and stack (JSON.stringify would write `{}`). */
function errorsWithStack(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}

type Level = Exclude<keyof Log, 'access'>;

/**
 * `log`, writing each message (level and text; its data may differ) at most `burst` times per
 * window of `windowMs` that its first line opens; the lines held back are counted, and at the
 * window's end one line of the same level and text says how many: `{repeated: n, withinS}`.
 * So a message repeated without end costs at most `burst + 1` lines per window.
 */
export function limitRepeats(log: Log, { burst, windowMs }: RepeatLimits): Log {
  const windows = new Map<string, { count: number }>();
  const entry = (lvl: Level) => (msg: string, data?: object) => {
    const key = `${lvl} ${msg}`;
    let window = windows.get(key);
    if (!window) {
      const opened = { count: 0 };
      window = opened;
      windows.set(key, opened);
      setTimeout(() => {
        windows.delete(key);
        if (opened.count > burst) log[lvl](msg, { repeated: opened.count - burst, withinS: windowMs / 1000 });
      }, windowMs).unref();
    }
    if (++window.count <= burst) log[lvl](msg, data);
  };
  return { debug: entry('debug'), info: entry('info'), warn: entry('warn'), error: entry('error') };
}
