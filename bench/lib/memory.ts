import { getHeapSpaceStatistics } from 'node:v8';

export interface Memory {
  rss: number;
  /** Resident bytes of V8's young generation: empty after a full GC, sized by V8's own heuristics. */
  young: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

/**
 * This process's memory after two full collections with a pause between (work a collection let
 * run finishes first), bytes: what it holds on to, unlike RSS alone, which also follows when the
 * collector last ran. Needs `--expose-gc` (spawnNode's `nodeArgs`). RSS includes uWS's native
 * socket state, not kernel buffers.
 */
export async function settledMemory(): Promise<Memory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('start this process with --expose-gc');
  for (let i = 0; i < 2; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 100));
  }
  const m = process.memoryUsage();
  const young = getHeapSpaceStatistics()
    .filter((sp) => sp.space_name === 'new_space' || sp.space_name === 'new_large_object_space')
    .reduce((sum, sp) => sum + sp.physical_space_size, 0);
  return { rss: m.rss, young, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external };
}
