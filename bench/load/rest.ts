/**
 * The load generator of `bench rest`, one process per contender (pinned to CPU 1 by the parent).
 * argv[2] is a JSON `LoadJob`; the one stdout line is a JSON `LoadReport`.
 */
import { connect } from '../../server/store/db.ts';
import { report } from '../lib/child.ts';
import { Latencies, runHttpLoad, type Conversation, type Phase } from '../lib/http-load.ts';
import { cpuMeter, type CpuUsed } from '../lib/procs.ts';

export type LoadJob = {
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** CPU accounting over the measure phase: the server process and, when local, PostgreSQL. */
  serverPid?: number;
  postmasterPid?: number;
} & (
  /** GET `path` in a loop (default /api/v1/health). */
  | { kind: 'health'; port: number; path?: string }
  | { kind: 'clock'; port: number; key: string; badges: number[] }
  | { kind: 'sql'; databaseUrl: string; guildId: string; userIds: string[] }
);

export interface LoadReport {
  /** Completed units in the measure phase: requests (health) or pairs (clock, sql). */
  ops: number;
  measuredMs: number;
  p50: number;
  p99: number;
  /** Non-200 answers by status, any phase. */
  errors: Record<string, number>;
  /** CPU time used in the measure phase; `other`: every other process on the box (outside load). */
  cpuMs: CpuUsed;
}

const job = JSON.parse(process.argv[2]) as LoadJob;

const errors: Record<string, number> = {};
const fault = (what: string) => {
  errors[what] = (errors[what] ?? 0) + 1;
};
const latencies = new Latencies();
const meter = cpuMeter(job);
let cpuMs: LoadReport['cpuMs'] = { loadgen: 0, server: null, postgres: null, other: 0 };
const onMeasure = (edge: 'start' | 'end') => {
  if (edge === 'start') meter.start();
  else cpuMs = meter.end();
};

function request(method: string, path: string, headers: Record<string, string>, body?: string): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
}

/** GET `path` (an inputless public route) in a loop. */
function healthConversation(counter: { ops: number }, path: string): () => Conversation {
  const req = request('GET', path, {});
  return () => {
    let sent = 0;
    return {
      next(phase) {
        if (phase === 'drain') return null;
        sent = performance.now();
        return req;
      },
      answered(status, phase) {
        if (status !== 200) return fault(`${status}`);
        if (phase === 'measure') {
          counter.ops++;
          latencies.add(performance.now() - sent);
        }
      },
    };
  };
}

/**
 * Clock-in then clock-out, sequentially per connection, over the connection's own badges
 * (badge i, i + N, i + 2N, ...), so no two connections touch one person. A pair counts when both
 * answered 200 and the clock-out came back in the measure phase; drain stops after a clock-out.
 */
function clockConversation(counter: { ops: number }, key: string, badges: number[], connections: number): (i: number) => Conversation {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  return (i) => {
    const own = badges.filter((_, j) => j % connections === i);
    if (own.length === 0) throw new Error(`connection ${i} has no badge: seed more people than connections`);
    const ins = own.map((b) => request('POST', '/api/v1/admin/clock-in', headers, JSON.stringify({ badge: b })));
    const outs = own.map((b) => request('POST', '/api/v1/admin/clock-out', headers, JSON.stringify({ badge: b })));
    let at = 0;
    let clockedIn = false;
    let inOk = false;
    let pairStart = 0;
    return {
      next(phase) {
        if (clockedIn) return outs[at];
        if (phase === 'drain') return null;
        pairStart = performance.now();
        return ins[at];
      },
      answered(status, phase) {
        if (!clockedIn) {
          inOk = status === 200;
          if (!inOk) fault(`clock-in ${status}`);
          clockedIn = true; // clock out even after a failed clock-in, so the person ends off duty
          return;
        }
        clockedIn = false;
        if (status !== 200) fault(`clock-out ${status}`);
        else if (inOk && phase === 'measure') {
          counter.ops++;
          latencies.add(performance.now() - pairStart);
        }
        at = (at + 1) % own.length;
      },
    };
  };
}

/**
 * The reference for clock pairs: the same number of parallel workers over a postgres.js pool of 10
 * (the server's size and client options), each doing `insert ... returning id` then `update ... closed`
 * for its own people, autocommit, nothing else.
 */
async function sqlLoop(j: Extract<LoadJob, { kind: 'sql' }>, counter: { ops: number }): Promise<number> {
  const sql = connect(j.databaseUrl, 10);
  let phase: Phase = 'warmup';
  let measureStart = 0;
  let measuredMs = 0;
  const worker = async (i: number) => {
    const own = j.userIds.filter((_, k) => k % j.connections === i);
    for (let at = 0; phase !== 'drain'; at = (at + 1) % own.length) {
      const start = performance.now();
      const [row] = await sql`insert into shifts (guild_id, user_id) values (${j.guildId}, ${own[at]}) returning id`;
      await sql`update shifts set clock_out_at = now(), status = 'CLOSED' where id = ${row.id}`;
      if (phase === 'measure') {
        counter.ops++;
        latencies.add(performance.now() - start);
      }
    }
  };
  const timers = new Promise<void>((resolve) => {
    setTimeout(() => {
      phase = 'measure';
      onMeasure('start');
      measureStart = performance.now();
      setTimeout(() => {
        measuredMs = performance.now() - measureStart;
        phase = 'drain';
        onMeasure('end');
        resolve();
      }, j.durationMs);
    }, j.warmupMs);
  });
  try {
    await Promise.all([timers, ...Array.from({ length: j.connections }, (_, i) => worker(i))]);
  } finally {
    await sql.end({ timeout: 5 });
  }
  return measuredMs;
}

const counter = { ops: 0 };
let measuredMs: number;
if (job.kind === 'sql') {
  measuredMs = await sqlLoop(job, counter);
} else {
  const conversation = job.kind === 'health' ? healthConversation(counter, job.path ?? '/api/v1/health') : clockConversation(counter, job.key, job.badges, job.connections);
  ({ measuredMs } = await runHttpLoad({ port: job.port, connections: job.connections, conversation, warmupMs: job.warmupMs, durationMs: job.durationMs, onMeasure }));
}
const { p50, p99 } = latencies.percentiles();
report({ ops: counter.ops, measuredMs, p50, p99, errors, cpuMs } satisfies LoadReport);
process.exit(0);
