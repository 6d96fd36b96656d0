import t from 'tap';
import fsModule from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { createMedicSync } from '../../client-sdk/medic/index.ts';
import { queueDir, sleep } from './helpers.ts';

// Spec §8 "Medic queue checkpoint: every 2 s": the log is fsynced persistDebounceMs after a write
// (default 2000), not at each write, and on stop(). Observed at the system call: fs.fsyncSync is
// wrapped (the real call still runs) and every fsync is timed.
const syncs: number[] = [];
const realFsync = fsModule.fsyncSync;
fsModule.fsyncSync = (fd: number) => { syncs.push(performance.now()); return realFsync(fd); };
syncBuiltinESMExports();
t.teardown(() => { fsModule.fsyncSync = realFsync; syncBuiltinESMExports(); });

const dir = queueDir(t);

t.test('writes are fsynced 2 s after the first of them (default persistDebounceMs), and at stop', async (t) => {
  // no key: the queue only writes, so nothing but the checkpoint can fsync
  const medic = createMedicSync({ baseUrl: 'http://127.0.0.1:9', dir, log: () => {} });
  await sleep(100);
  syncs.length = 0;
  const start = performance.now();
  for (let i = 0; i < 50; i++) medic.enqueue({ type: 'vitals', citizenId: 'CP-1', heartRate: 80 + (i % 20) });
  t.same(syncs, [], 'no fsync per enqueue');
  await sleep(1500);
  t.same(syncs, [], 'none before the debounce ends');
  await sleep(1000);
  t.equal(syncs.length, 1, 'one checkpoint for the 50 writes');
  t.ok(syncs[0] - start >= 1900 && syncs[0] - start <= 2500, `checkpoint ${Math.round(syncs[0] - start)} ms after the first write`);
  medic.enqueue({ type: 'vitals', citizenId: 'CP-1', heartRate: 90 });
  const before = syncs.length;
  await medic.stop();
  t.ok(syncs.length > before, 'stop() fsyncs what came after the last checkpoint');
});
