import { writeFileSync } from 'node:fs';
import type { CDPSession } from 'playwright-core';

interface TraceEvent { name: string; ph: string; pid: number; tid: number; dur?: number; args?: { name?: string } }

/**
 * Records a Chrome trace (the DevTools Performance panel's categories) while `during` runs, writes
 * it to `file` (open it in DevTools: Performance, Load profile) and returns the renderer main
 * thread's busiest trace events, in ms of their own duration (nested events overlap their parents).
 */
export async function traceWindow(cdp: CDPSession, file: string, during: () => Promise<unknown>): Promise<{ name: string; ms: number }[]> {
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing',
    transferMode: 'ReturnAsStream',
  });
  await during();
  const complete = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream!)));
  await cdp.send('Tracing.end');
  const stream = await complete;
  const chunks: string[] = [];
  for (;;) {
    const { data, eof } = await cdp.send('IO.read', { handle: stream });
    chunks.push(data);
    if (eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const text = chunks.join('');
  writeFileSync(file, text);
  const parsed = JSON.parse(text) as TraceEvent[] | { traceEvents: TraceEvent[] };
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const byName = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur || !main.has(`${e.pid}:${e.tid}`)) continue;
    byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
  }
  return [...byName].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}
