/**
 * The load side of `bench medic`, one process per run (pinned to CPU 1 by the parent). argv[2] is a
 * JSON `MedicJob`; the one stdout line is its report.
 *   rest: POST /api/v1/medic/events, one batch of 100 at a time (the queue's own pattern: one in flight), per key
 *   sql:  the same rows by raw postgres.js multi-row inserts, one transaction per batch (files pre-opened), per guild
 *   wal:  the medic queue itself (client-sdk/medic) carrying `events` events to the server: bytes it wrote to disk
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import postgres from 'postgres';
import { request } from '../../client-sdk/game/http.ts';
import { createMedicSync } from '../../client-sdk/medic/index.ts';
import { report } from './child.ts';
import { BATCH, benchBatch, citizenOf, generationOf, type Mix } from './medic-events.ts';
import { Latencies } from './http-load.ts';
import { cpuMeter, type CpuUsed } from './procs.ts';

/**
 * rest and sql run one lane per key / guild id (default one): each lane one batch in flight, its own
 * event ids (`<prefix>l<lane>-…` when there are several), all lanes at once.
 */
export type MedicJob = { prefix: string; t0: number; mix: Mix; serverPid?: number; postmasterPid?: number } & (
  | { kind: 'rest'; port: number; key: string; keys?: string[]; warmup: number; batches: number }
  | { kind: 'sql'; databaseUrl: string; guildId: string; guildIds?: string[]; warmup: number; batches: number }
  | { kind: 'wal'; port: number; key: string; events: number }
);

export interface MedicLoadReport {
  events: number;
  measuredMs: number;
  /** Per batch round trip, ms. */
  p50: number;
  p99: number;
  errors: string[];
  cpuMs: CpuUsed;
}

export interface WalReport {
  events: number;
  jsonBytes: number;
  walBytes: number;
  enqueueUs: number;
  elapsedMs: number;
  applied: number;
  dirBytesAfter: number;
  errors: string[];
}

const job = JSON.parse(process.argv[2]) as MedicJob;

/** Runs `once(lane, b)` for warm-up then measured batches, one at a time in each lane, the lanes at once. */
async function timed(lanes: number, warmup: number, batches: number, once: (lane: number, b: number) => Promise<void>): Promise<MedicLoadReport> {
  const all = (fn: (lane: number) => Promise<void>) => Promise.all(Array.from({ length: lanes }, (_, l) => fn(l)));
  await all(async (l) => {
    for (let b = 0; b < warmup; b++) await once(l, b);
  });
  const lat = new Latencies();
  const cpu = cpuMeter(job);
  cpu.start();
  const start = performance.now();
  await all(async (l) => {
    for (let b = warmup; b < warmup + batches; b++) {
      const t = performance.now();
      await once(l, b);
      lat.add(performance.now() - t);
    }
  });
  const measuredMs = performance.now() - start;
  const cpuMs = cpu.end();
  return { events: lanes * batches * BATCH, measuredMs, ...lat.percentiles(), errors: [], cpuMs };
}

const lanePrefix = (prefix: string, lanes: number, l: number) => (lanes === 1 ? prefix : `${prefix}l${l}`);

async function rest(j: Extract<MedicJob, { kind: 'rest' }>): Promise<MedicLoadReport> {
  const keys = j.keys ?? [j.key];
  const bodies = keys.map((_, l) => Array.from({ length: j.warmup + j.batches }, (_, b) => JSON.stringify({ events: benchBatch(lanePrefix(j.prefix, keys.length, l), b, j.t0, j.mix) })));
  const errors: string[] = [];
  const url = `http://127.0.0.1:${j.port}/api/v1/medic/events`;
  const out = await timed(keys.length, j.warmup, j.batches, async (l, b) => {
    const headers = { authorization: `Bearer ${keys[l]}`, 'content-type': 'application/json' };
    const res = await request(url, { method: 'POST', headers, body: bodies[l][b], fetch: process.env.MEDIC_FETCH ? undefined : null });
    const body = JSON.parse(res.body) as { applied?: number; error?: string };
    if (res.status !== 200 || body.applied !== BATCH) errors.push(`lane ${l} batch ${b}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  });
  return { ...out, errors };
}

async function sql(j: Extract<MedicJob, { kind: 'sql' }>): Promise<MedicLoadReport> {
  const guilds = j.guildIds ?? [j.guildId];
  const db = postgres(j.databaseUrl, { max: guilds.length, onnotice: () => {} });
  try {
    const files = new Map<string, number>();
    const generations = generationOf((j.warmup + j.batches) * BATCH - 1, j.mix) + 1;
    for (const [l, guildId] of guilds.entries()) {
      for (let g = 0; g < generations; g++) {
        for (let c = 0; c < j.mix.citizens; c++) {
          const citizenId = citizenOf(lanePrefix(j.prefix, guilds.length, l), c, g);
          const [row] = await db`insert into medic_files (guild_id, citizen_id, opened_at, last_event_at)
            values (${guildId}, ${citizenId}, ${j.t0}, ${j.t0}) returning id`;
          files.set(citizenId, Number(row.id));
        }
      }
    }
    const batches = guilds.map((_, l) => Array.from({ length: j.warmup + j.batches }, (_, b) => benchBatch(lanePrefix(j.prefix, guilds.length, l), b, j.t0, j.mix)));
    return await timed(guilds.length, j.warmup, j.batches, async (l, b) => {
      const guildId = guilds[l];
      const events: Record<string, unknown>[] = [], injuries: Record<string, unknown>[] = [], vitals: Record<string, unknown>[] = [];
      for (const e of batches[l][b]) {
        const fileId = files.get(e.citizenId)!;
        if (e.type === 'vitals') {
          vitals.push({ guild_id: guildId, file_id: fileId, at: e.at, event_id: e.id, heart_rate: e.heartRate, systolic: e.systolic, diastolic: e.diastolic,
            spo2: e.spo2, resp_rate: e.respRate, temperature: e.temperature, gcs: e.gcs });
          continue;
        }
        const { id, type, citizenId, at, ...data } = e;
        events.push({ guild_id: guildId, event_id: id, file_id: fileId, citizen_id: citizenId, type, at, data: db.json(data as never) });
        if (type === 'injury_added') {
          injuries.push({ guild_id: guildId, file_id: fileId, injury_id: e.injuryId, body_part: e.bodyPart, kind: e.kind, severity: e.severity, bleeding: e.bleeding, added_at: at, changed_at: at });
        }
      }
      await db.begin((tx) => [
        tx`insert into medic_events ${tx(events)}`,
        tx`insert into medic_injuries ${tx(injuries)}`,
        tx`insert into medic_vitals ${tx(vitals)}`,
      ]);
    });
  } finally {
    await db.end({ timeout: 1 });
  }
}

async function wal(j: Extract<MedicJob, { kind: 'wal' }>): Promise<WalReport> {
  const dir = mkdtempSync(join(tmpdir(), 'dt-bench-wal-'));
  try {
    const errors: string[] = [];
    // The bound above the run: this measures the bytes of every event (drops would add tombstones instead).
    const sync = createMedicSync({ baseUrl: `http://127.0.0.1:${j.port}`, apiKey: j.key, dir, maxQueued: j.events + 1, log: (level, m) => level !== 'info' && errors.push(m) });
    let jsonBytes = 0, enqueueMs = 0;
    const start = performance.now();
    for (let b = 0; b * BATCH < j.events; b++) {
      const events = benchBatch(j.prefix, b, j.t0, j.mix);
      for (const e of events) jsonBytes += Buffer.byteLength(JSON.stringify(e));
      const t = performance.now();
      for (const e of events) sync.enqueue(e);
      enqueueMs += performance.now() - t;
      await tick(); // the game's tick: the sender runs between
    }
    await sync.flush();
    const elapsedMs = performance.now() - start;
    const stats = sync.stats();
    await sync.stop();
    const dirBytesAfter = readdirSync(dir).reduce((sum, n) => sum + statSync(join(dir, n)).size, 0);
    return { events: stats.enqueued, jsonBytes, walBytes: stats.walBytes, enqueueUs: (enqueueMs * 1000) / stats.enqueued, elapsedMs, applied: stats.applied, dirBytesAfter, errors };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

report((job.kind === 'rest' ? await rest(job) : job.kind === 'sql' ? await sql(job) : await wal(job)) as unknown as Record<string, unknown>);
process.exit(0);
