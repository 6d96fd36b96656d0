/**
 * Latency of single requests, one at a time: a stats answer is read by one admin at a time, so the
 * time of one request (not throughput) is what a user feels. Contenders are interleaved round by
 * round, so a burst of outside load on a shared box hits every contender alike.
 */

export interface Contender {
  id: string;
  /** One measured operation; resolves when its answer is complete (the whole body read). */
  once(): Promise<void>;
}

export interface Timing {
  id: string;
  samples: number[];
  p50: number;
  p99: number;
}

/** The q-quantile (0..1) of sorted `xs`, nearest rank. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * `warmup` unmeasured rounds, then `runs` measured ones; every round runs each contender once, in
 * an order rotated by the round (no contender always follows the same other one).
 */
export async function timeInterleaved(contenders: Contender[], o: { warmup: number; runs: number; onRound?: (round: number) => void }): Promise<Timing[]> {
  const samples = contenders.map(() => [] as number[]);
  for (let round = 0; round < o.warmup + o.runs; round++) {
    for (let j = 0; j < contenders.length; j++) {
      const i = (j + round) % contenders.length;
      const t0 = performance.now();
      await contenders[i].once();
      const ms = performance.now() - t0;
      if (round >= o.warmup) samples[i].push(ms);
    }
    o.onRound?.(round);
  }
  return contenders.map((c, i) => {
    const sorted = [...samples[i]].sort((a, b) => a - b);
    return { id: c.id, samples: samples[i], p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
  });
}

/** A GET through the real server with the guild's key; anything but a 200 stops the bench. */
export function getContender(id: string, baseUrl: string, path: string, key: string): Contender {
  const headers = { authorization: `Bearer ${key}` };
  return {
    id,
    async once() {
      const res = await fetch(`${baseUrl}${path}`, { headers });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${Buffer.from(body).toString('utf8').slice(0, 300)}`);
    },
  };
}

/** The answer of one GET as JSON (for checking what was measured). */
export async function getJson(baseUrl: string, path: string, key: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${body.slice(0, 300)}`);
  return JSON.parse(body) as Record<string, unknown>;
}
