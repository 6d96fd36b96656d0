import type { Timing } from './stats-timing.ts';
import { table } from './table.ts';

/** One query measured in both guilds. */
export interface QueryRow { label: string; big: Timing; small: Timing }

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

export function queryTable(rows: QueryRow[], bigLabel: string, smallLabel: string): string {
  return table(
    ['query', `p50 ${bigLabel}`, `p99 ${bigLabel}`, `p50 ${smallLabel}`, `p99 ${smallLabel}`, `p50 ${bigLabel}/${smallLabel}`],
    rows.map((r) => [r.label, ms(r.big.p50), ms(r.big.p99), ms(r.small.p50), ms(r.small.p99), `${(r.big.p50 / r.small.p50).toFixed(2)}x`]),
  );
}

/** `name: 1.23x <reference> (target <= 2x)  ok|MISSED`; the exit code stays 0, as in every bench. */
export function verdict(name: string, ratio: number, reference: string, target: number): { line: string; ok: boolean } {
  const ok = ratio <= target;
  return { ok, line: `${`${name}:`.padEnd(22)}${ratio.toFixed(2)}x ${reference} (target <= ${target}x)  ${ok ? 'ok' : 'MISSED'}\n` };
}

export const fmtMs = ms;
