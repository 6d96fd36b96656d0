/**
 * Runs `task` every `everyMs`, one run at a time: the next is planned when the last one ended, with
 * ±10 % jitter so the nodes of a deployment do not all run it in the same millisecond. A failed run
 * is handed to `onError` and the next comes as planned. `stop()` plans no more runs and waits for a
 * run under way; `task` may check `stopped()` to end early.
 */
export function runPeriodically(everyMs: number, task: (stopped: () => boolean) => Promise<unknown>, onError: (err: unknown) => void) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const isStopped = () => stopped;
  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = task(isStopped).then(() => {}, onError).finally(() => { running = null; schedule(); });
    }, everyMs * (0.9 + Math.random() * 0.2));
    timer.unref();
  }
  schedule();
  return {
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
