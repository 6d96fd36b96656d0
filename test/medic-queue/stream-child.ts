/**
 * A game process for the kill -9 test: streams events 1..TOTAL of the deterministic stream through
 * a medic queue in MEDIC_DIR, a few per 10 ms, and continues after a restart from what its queue
 * holds (its sequence numbers are the stream's numbers: one enqueue per event, from 1).
 * stdout, one JSON line each: {started, restored} at start, {done, stats} once all is delivered.
 */
import { createMedicSync } from '../../client-sdk/medic/index.ts';
import { streamEvent } from './helpers.ts';

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const total = Number(env('MEDIC_TOTAL')), t0 = Number(env('MEDIC_T0')), prefix = env('MEDIC_PREFIX');
const perTick = Number(process.env.MEDIC_PER_TICK ?? 8);

const sync = createMedicSync({
  baseUrl: env('MEDIC_URL'), apiKey: env('MEDIC_KEY'), dir: env('MEDIC_DIR'),
  persistDebounceMs: 200, batchSize: 100, backoff: { baseMs: 100, maxMs: 1000 }, log: () => {},
});
let next = sync.stats().lastSeq + 1;
process.stdout.write(`${JSON.stringify({ started: next, restored: sync.stats().restored })}\n`);

function tick() {
  for (let n = 0; n < perTick && next <= total; n++, next++) {
    const seq = sync.enqueue(streamEvent(prefix, next, t0)) && sync.stats().lastSeq;
    if (seq !== next) throw new Error(`event ${next} got sequence ${seq}`);
  }
  if (next <= total) setTimeout(tick, 10);
  else void finish();
}

async function finish() {
  await sync.flush();
  const stats = sync.stats();
  await sync.stop();
  process.stdout.write(`${JSON.stringify({ done: true, stats })}\n`);
  process.exit(0);
}

tick();
