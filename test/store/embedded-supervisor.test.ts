/**
 * The supervisor's rules, with postmasters that die when the test says so: a postmaster that dies
 * unasked is restarted on its port; a port refused three times is given up for a free one, and
 * `onRestart` listeners hear the new URL; a postmaster stopped on purpose, or not supervised, stays
 * down. (test/faults/outage.test.ts kills a real one.)
 */
import t from 'tap';
import { superviseCluster } from '../../server/store/embedded-supervisor.ts';
import type { Postmaster } from '../../server/store/pg-process.ts';
import { recordingLog } from '../helpers/faults.ts';

/** A postmaster that exits when `die()` is called (unexpectedly) or when it is stopped. */
function fakePostmaster(pid: number): Postmaster & { die(): void; stopped: boolean } {
  let exit!: (outcome: { unexpected: boolean }) => void;
  const exited = new Promise<{ unexpected: boolean }>((resolve) => (exit = resolve));
  const postmaster = {
    pid,
    exited,
    stopped: false,
    async stop() {
      postmaster.stopped = true;
      exit({ unexpected: false });
    },
    disown() {},
    die: () => exit({ unexpected: true }),
  };
  return postmaster;
}

const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
const portTaken = (port: number) => new Error(`PostgreSQL did not start on port ${port} (exit 1): FATAL:  could not bind IPv4 address "127.0.0.1": Address already in use`);

/** `promise`, or a rejection after `ms` (a ref'd timer: the supervisor's own timers do not keep the process alive). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms)))])
    .finally(() => clearTimeout(timer));
}

t.test('a postmaster that dies is restarted; a port taken three times over is moved, and listeners hear the new URL', async (t) => {
  const log = recordingLog();
  const first = fakePostmaster(1);
  const attempts: number[] = [];
  const stoppedOn: number[] = [];
  let restarted: ReturnType<typeof fakePostmaster> | null = null;
  const cluster = superviseCluster({
    first, port: 5000, log, supervise: true,
    start: async (port) => {
      attempts.push(port);
      if (port === 5000) throw portTaken(port);
      return (restarted = fakePostmaster(2));
    },
    freePort: async () => 6000,
    url,
    stopped: (port) => stoppedOn.push(port),
  });
  t.equal(cluster.url, url(5000));
  const heard = new Promise<string>((resolve) => cluster.onRestart(resolve));

  first.die();
  t.equal(await within(heard, 10_000), url(6000), 'listeners hear the URL on the new port');
  t.same(attempts, [5000, 5000, 5000, 6000], 'three attempts on its own port, then one on a free port');
  t.ok(log.lines.some((l) => /port is taken by another program; moving it/.test(l)), 'the move is logged');
  t.ok(log.lines.some((l) => /is running again/.test(l)), 'and so is the restart');

  await cluster.stop();
  t.ok(restarted!.stopped, 'stop() stops the restarted postmaster');
  t.same(stoppedOn, [6000], 'and reports the port it last ran on');
});

t.test('a postmaster stopped on purpose, or one that is not supervised, is not restarted', async (t) => {
  for (const [how, supervise] of [['stopped', true], ['died, unsupervised', false]] as const) {
    const first = fakePostmaster(1);
    let starts = 0;
    const cluster = superviseCluster({
      first, port: 5000, log: recordingLog(), supervise,
      start: async () => {
        starts++;
        return fakePostmaster(2);
      },
      freePort: async () => 6000,
      url,
      stopped: () => {},
    });
    if (supervise) await cluster.stop();
    else first.die();
    await new Promise((r) => setTimeout(r, 500)); // the first restart attempt comes after 100 ms
    t.equal(starts, 0, `${how}: no restart`);
  }
});
