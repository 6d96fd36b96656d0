import WebSocket from 'ws';

/** A raw tRPC WebSocket (no client library): every text frame it received, parsed, and its close. */
export async function rawSocket(url: string, opts: { params?: Record<string, string>; headers?: Record<string, string> } = {}) {
  const base = `${url.replace('http', 'ws')}/trpc`;
  const ws = new WebSocket(opts.params ? `${base}?connectionParams=1` : base, { headers: opts.headers, maxPayload: 8 * 1024 * 1024 });
  const messages: any[] = [];
  let closed: { code: number; reason: string } | null = null;
  ws.on('message', (m) => messages.push(m.toString() === 'PONG' ? 'PONG' : JSON.parse(m.toString())));
  const closedP = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve((closed = { code, reason: reason.toString() }))));
  await new Promise((resolve, reject) => { ws.on('open', resolve); ws.on('error', reject); });
  if (opts.params) ws.send(JSON.stringify({ method: 'connectionParams', data: opts.params }));
  return {
    ws, messages, closedP, get closed() { return closed; },
    send: (m: unknown) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
    /** The first frame matching `pred`, waiting up to `ms`. */
    async next(pred: (m: any) => boolean = () => true, ms = 3000) {
      const start = Date.now();
      for (;;) {
        const hit = messages.find(pred);
        if (hit) return hit;
        if (Date.now() - start > ms) throw new Error(`no matching frame; got ${JSON.stringify(messages).slice(0, 500)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    /** Waits until `pred` holds over all frames received. */
    async until(pred: (messages: any[]) => boolean, ms = 5000) {
      const start = Date.now();
      while (!pred(messages)) {
        if (Date.now() - start > ms) throw new Error(`condition not met; got ${messages.length} frames: ${JSON.stringify(messages.slice(-3)).slice(0, 500)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

export const watchFrame = (id: number | string, topics: string[]) => ({ id, method: 'subscription', params: { path: 'live.watch', input: { json: { topics } } } });
