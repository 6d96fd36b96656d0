/**
 * The load generator of `bench rest --only writes`, one process per contender (pinned to CPU 1 by
 * the parent). argv[2] is a JSON `WritesJob`; the one stdout line is a JSON `WritesReport`.
 *
 * status: PUT /api/v1/units/{callsign}/status, FMS 1 and 2 in turn, each connection on its own unit.
 * calls:  POST /api/v1/integrations/ingame/calls (a new externalId) then its resolve, in turn; a pair
 *         counts when both answered 200 and the resolve came back in the measure phase.
 */
import { report } from '../lib/child.ts';
import { Latencies, runHttpLoad, type Conversation } from '../lib/http-load.ts';
import { cpuMeter, type CpuUsed } from '../lib/procs.ts';

export interface WritesJob {
  kind: 'status' | 'calls';
  port: number;
  key: string;
  /** Keys the call reports rotate over (the per-key rate limit). */
  gameKeys: string[];
  /** One unit per connection (status). */
  callsigns: string[];
  connections: number;
  warmupMs: number;
  durationMs: number;
  serverPid?: number;
  postmasterPid?: number;
}

export interface WritesReport {
  /** Status changes, or report + resolve pairs, completed in the measure phase. */
  ops: number;
  measuredMs: number;
  p50: number;
  p99: number;
  errors: Record<string, number>;
  cpuMs: CpuUsed;
}

const job = JSON.parse(process.argv[2]) as WritesJob;
const errors: Record<string, number> = {};
const fault = (what: string) => void (errors[what] = (errors[what] ?? 0) + 1);
const latencies = new Latencies();
const meter = cpuMeter(job);
let cpuMs: CpuUsed = { loadgen: 0, server: null, postgres: null, other: 0 };

function request(method: string, path: string, body: string, key = job.key): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${key}`, 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

function statusConversation(counter: { ops: number }): (i: number) => Conversation {
  return (i) => {
    const path = `/api/v1/units/${encodeURIComponent(job.callsigns[i])}/status`;
    const bodies = [request('PUT', path, '{"status":"1"}'), request('PUT', path, '{"status":"2"}')];
    let n = 0;
    let sent = 0;
    return {
      next(phase) {
        if (phase === 'drain') return null;
        sent = performance.now();
        return bodies[n++ % 2];
      },
      answered(status, phase) {
        if (status !== 200) return fault(`status ${status}`);
        if (phase === 'measure') {
          counter.ops++;
          latencies.add(performance.now() - sent);
        }
      },
    };
  };
}

function callsConversation(counter: { ops: number }): (i: number) => Conversation {
  return (i) => {
    let n = 0;
    let reported = false;
    let reportOk = false;
    let pairStart = 0;
    const id = () => `bench-${process.pid}-${i}-${n}`;
    return {
      next(phase) {
        if (reported) return request('POST', `/api/v1/integrations/ingame/calls/${id()}/resolve`, '{"resolution":"reached"}');
        if (phase === 'drain') return null;
        n++;
        pairStart = performance.now();
        const body = JSON.stringify({ externalId: id(), title: 'Verkehrsunfall', message: 'Zwei PKW', location: { x: 215.5, y: -810.25, street: 'Alta St' } });
        return request('POST', '/api/v1/integrations/ingame/calls', body, job.gameKeys[n % job.gameKeys.length]);
      },
      answered(status, phase) {
        if (!reported) {
          reportOk = status === 200;
          if (!reportOk) fault(`report ${status}`);
          reported = true; // resolve even after a failed report (a 404 then), so nothing stays open
          return;
        }
        reported = false;
        if (status !== 200) fault(`resolve ${status}`);
        else if (reportOk && phase === 'measure') {
          counter.ops++;
          latencies.add(performance.now() - pairStart);
        }
      },
    };
  };
}

const counter = { ops: 0 };
const conversation = job.kind === 'status' ? statusConversation(counter) : callsConversation(counter);
const { measuredMs } = await runHttpLoad({
  port: job.port, connections: job.connections, conversation, warmupMs: job.warmupMs, durationMs: job.durationMs,
  onMeasure: (edge) => (edge === 'start' ? meter.start() : void (cpuMs = meter.end())),
});
const { p50, p99 } = latencies.percentiles();
report({ ops: counter.ops, measuredMs, p50, p99, errors, cpuMs } satisfies WritesReport);
process.exit(0);
