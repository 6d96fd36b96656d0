/** Helpers for processes the bench starts: report once on stdout, stop on SIGTERM, never outlive the bench. */

/** The one JSON line the parent waits for. */
export function report(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** Runs `stop` on SIGTERM/SIGINT, or when the parent died without telling us (orphaned: ppid changed). */
export function stopOnSignalOrOrphan(stop: () => Promise<void> | void): void {
  const parent = process.ppid;
  let stopping = false;
  const run = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await stop();
    } finally {
      process.exit(0); // a clean exit also writes --cpu-prof profiles
    }
  };
  process.on('SIGTERM', run);
  process.on('SIGINT', run);
  setInterval(() => {
    if (process.ppid !== parent) void run();
  }, 1000).unref();
}
