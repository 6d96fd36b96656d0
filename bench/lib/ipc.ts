import type { ChildProcess } from 'node:child_process';

/**
 * Request/response over Node's IPC channel between the bench and a child started with
 * `spawnNode(…, { ipc: true })`. Values travel as JSON: send hrtime stamps as numbers or strings.
 */

interface Request { id: number; cmd: string; arg?: unknown }
interface Reply { re: number; value?: unknown; error?: string }

/** Parent side: `call(cmd, arg)` resolves with the child's answer; rejects on its error, its exit or the timeout. */
export function ipcPeer(child: ChildProcess, name: string) {
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  const settle = (id: number) => {
    const p = pending.get(id);
    if (p) {
      pending.delete(id);
      clearTimeout(p.timer);
    }
    return p;
  };
  child.on('message', (m: Reply) => {
    if (!m || typeof m.re !== 'number') return;
    const p = settle(m.re);
    if (!p) return;
    if (m.error !== undefined) p.reject(new Error(`${name}: ${m.error}`));
    else p.resolve(m.value);
  });
  child.once('exit', (code, signal) => {
    for (const id of [...pending.keys()]) settle(id)!.reject(new Error(`${name} exited (${signal ?? code}) while a call was pending`));
  });
  return {
    call<T>(cmd: string, arg?: unknown, timeoutMs = 120_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (!child.connected) return reject(new Error(`${name}: no IPC channel (exited?)`));
        const id = next++;
        const timer = setTimeout(() => {
          settle(id);
          reject(new Error(`${name}: "${cmd}" got no answer within ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
        child.send({ id, cmd, arg } satisfies Request);
      });
    },
  };
}

/** Child side: answers the parent's calls with `handlers[cmd](arg)`; a thrown error goes back as the answer. */
export function serveIpc(handlers: Record<string, (arg: never) => unknown>): void {
  if (!process.send) throw new Error('no IPC channel: start this file with spawnNode(…, { ipc: true })');
  process.on('message', (m: Request) => {
    const handler = handlers[m?.cmd];
    const answer = (r: Omit<Reply, 're'>) => process.connected && process.send!({ re: m.id, ...r });
    if (!handler) return answer({ error: `unknown command "${m?.cmd}"` });
    Promise.resolve()
      .then(() => handler(m.arg as never))
      .then((value) => answer({ value }), (err) => answer({ error: String((err as Error)?.stack ?? err) }));
  });
}
