import { spread } from './board-report.ts';
import { table } from './table.ts';

/** One device's arrival in one round (ms): from the alarm's POST sent, from its answer, and from the DOM to the next frame (pages). */
export interface Arrived { fromSent: number; fromAnswer: number; toFrame: number | null }

/** One device over the run: an arrival per round, null for a round it missed (nothing within the deadline). */
export interface DeviceRun { name: string; rounds: (Arrived | null)[] }

export const TARGET_MS = 1000;

const f = (v: number) => (Number.isFinite(v) ? (Math.abs(v) < 10 ? v.toFixed(1) : v.toFixed(0)) : '-');
const x = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)}x` : '-');

/**
 * The table of the run: the floor first, then each device and the last device of every round;
 * a device meets the target when its p99 from the alarm sent is within TARGET_MS and it missed none.
 */
export function report(devices: DeviceRun[], floor: DeviceRun, answers: number[]): string {
  const floorSpread = spread(floor.rounds.filter((r) => r).map((r) => r!.fromSent));
  const row = (run: DeviceRun, verdict: boolean) => {
    const got = run.rounds.filter((r): r is Arrived => r !== null);
    const sent = spread(got.map((r) => r.fromSent));
    const missed = run.rounds.length - got.length;
    const frames = got.map((r) => r.toFrame).filter((v): v is number => v !== null);
    const ok = sent.p99 <= TARGET_MS && missed === 0;
    return [
      run.name, String(got.length), String(missed),
      `${f(sent.p50)} / ${f(sent.p99)} / ${f(sent.max)}`,
      run === floor ? '' : `${x(sent.p50 / floorSpread.p50)} / ${x(sent.p99 / floorSpread.p99)}`,
      f(spread(got.map((r) => r.fromAnswer)).p50),
      frames.length ? f(spread(frames).p50) : '',
      verdict ? (ok ? 'ok' : 'MISSED') : '',
    ];
  };
  // Every crew device of a round: the last to show it; a round any device missed is a miss.
  const every: DeviceRun = {
    name: 'every device (the last of each round)',
    rounds: floor.rounds.map((_, i) => {
      const all = devices.map((d) => d.rounds[i]);
      if (all.some((a) => a === null)) return null;
      const last = (all as Arrived[]).reduce((a, b) => (b.fromSent > a.fromSent ? b : a));
      return { ...last, toFrame: null };
    }),
  };
  const answer = spread(answers);
  return `\n${table(
    ['device', 'shown', 'missed', 'from the alarm sent, p50 / p99 / max ms', 'p50 / p99 to the floor', 'from its answer, p50 ms', 'DOM to next frame, p50 ms', `p99 <= ${TARGET_MS} ms`],
    [row(floor, false), ...devices.map((d) => row(d, true)), row(every, true)],
  )}(floor: bare uWS publishes a text to a page's plain WebSocket, which puts it in the DOM; timed alike. `
    + `POST /incidents/{n}/alarm answered after p50 ${f(answer.p50)} / p99 ${f(answer.p99)} / max ${f(answer.max)} ms)\n`;
}
