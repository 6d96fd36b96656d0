import type { Log } from '../../server/core/log.ts';

/** A Log that keeps every line (`message {data}`), and prints them too with LOG_LEVEL=debug. */
export function recordingLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  const echo = process.env.LOG_LEVEL === 'debug';
  const write = (lvl: string) => (msg: string, data?: object) => {
    const line = `${msg}${data ? ` ${JSON.stringify(data)}` : ''}`;
    lines.push(line);
    if (echo) process.stderr.write(`${lvl} ${line}\n`);
  };
  return { lines, debug: () => {}, info: write('info'), warn: write('warn'), error: write('error') };
}
