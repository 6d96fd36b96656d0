const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof levels;

export interface Log {
  debug(msg: string, data?: object): void;
  info(msg: string, data?: object): void;
  warn(msg: string, data?: object): void;
  error(msg: string, data?: object): void;
}

/** One JSON line per entry on stderr, so stdout stays for what the CLI prints. */
export function createLog(level: LogLevel): Log {
  const min = levels[level];
  const write = (lvl: LogLevel, msg: string, data?: object) => {
    if (levels[lvl] < min) return;
    process.stderr.write(JSON.stringify({ t: new Date().toISOString(), lvl, msg, ...data }) + '\n');
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
}
