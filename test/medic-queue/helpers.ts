/**
 * Shared pieces of the medic queue tests: a real server with a guild and an unscoped key, a
 * deterministic event stream, what the server stored (read by SQL), and a dead port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sql } from '../../server/store/db.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

export const GUILD = '700000000000000020';

type Teardown = { teardown(fn: () => unknown): void };

export async function medicServer(t: Teardown): Promise<{ server: TestServer; key: string }> {
  const server = await startTestServer(t);
  await seedGuild(server.sql, GUILD);
  return { server, key: await unscopedKey(server.sql, GUILD, 'game') };
}

/** A temporary queue directory, removed with the test. */
export function queueDir(t: Teardown): string {
  const dir = mkdtempSync(join(tmpdir(), 'dt-medic-q-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A port nothing listens on (bound, then closed): connections are refused at once. */
export async function deadPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

const PARTS = ['head', 'neck', 'chest', 'abdomen', 'pelvis', 'back', 'left_arm', 'right_arm', 'left_leg', 'right_leg'];
const KINDS = ['gunshot', 'stab', 'laceration', 'fracture', 'burn', 'blunt', 'bite', 'abrasion', 'crush', 'other'];

export type StreamEvent = Record<string, unknown> & { id: string; citizenId: string };

/** Event number `i` (1-based) of a deterministic stream: 5 citizens, about 80 % vitals, the rest injuries and treatments. */
export function streamEvent(prefix: string, i: number, t0: number): StreamEvent {
  const h = Math.imul(i, 2654435761) >>> 0;
  const citizenId = `${prefix}-c${h % 5}`;
  const base = { id: `${prefix}-${i}`, citizenId, at: t0 + i };
  const pick = (h >>> 8) % 100;
  if (pick < 80) return { ...base, type: 'vitals', heartRate: 50 + (h % 90), spo2: 85 + (h % 15), systolic: 90 + (h % 60), diastolic: 50 + (h % 40) };
  if (pick < 92) return { ...base, type: 'injury_added', injuryId: `inj-${i}`, bodyPart: PARTS[h % 10], kind: KINDS[(h >>> 4) % 10], severity: 1 + (h % 5), bleeding: h % 4 };
  return { ...base, type: 'treatment_applied', treatment: 'Druckverband', item: 'medic_bandage', by: { name: 'Dr. Test', badge: '07' }, tier: 1 + (h % 4), result: 'success' };
}

/** The first `count` events of a stream under a fresh prefix (`tag` and the time), an hour in the past. */
export function eventStream(tag: string, count: number): { prefix: string; t0: number; events: StreamEvent[] } {
  const prefix = `${tag}${Date.now().toString(36)}`;
  const t0 = Date.now() - 3_600_000;
  return { prefix, t0, events: Array.from({ length: count }, (_, i) => streamEvent(prefix, i + 1, t0)) };
}

export interface StoredEvent { id: string; citizenId: string; tx: number; seq: number }

/**
 * Every event the server stored for ids starting with `prefix-`, from both tables, with the
 * transaction that wrote it (xmin) and, for non-vital events, their arrival sequence.
 */
export async function storedEvents(sql: Sql, prefix: string): Promise<StoredEvent[]> {
  const like = `${prefix}-%`;
  const rows = await sql`
    select e.event_id, e.citizen_id, e.xmin::text::bigint as tx, e.seq from medic_events e
     where e.guild_id = ${GUILD} and e.event_id like ${like}
    union all
    select v.event_id, f.citizen_id, v.xmin::text::bigint, 0 from medic_vitals v
      join medic_files f on f.guild_id = v.guild_id and f.id = v.file_id
     where v.guild_id = ${GUILD} and v.event_id like ${like}`;
  return rows.map((r) => ({ id: r.event_id, citizenId: r.citizen_id, tx: Number(r.tx), seq: Number(r.seq) }));
}

/**
 * Compares what the server holds with the expected events (in the order they were enqueued):
 * missing, stored twice, unexpected, and per citizen any event written in an earlier transaction
 * (or with a lower arrival number) than an event enqueued before it.
 */
export function compareStored(stored: StoredEvent[], expected: { id: string; citizenId: string }[]) {
  const byId = new Map<string, StoredEvent[]>();
  for (const s of stored) byId.set(s.id, [...(byId.get(s.id) ?? []), s]);
  const missing: string[] = [], twice: string[] = [], outOfOrder: string[] = [];
  const want = new Set(expected.map((e) => e.id));
  const unexpected = stored.filter((s) => !want.has(s.id)).map((s) => s.id);
  const lastTx = new Map<string, { tx: number; id: string }>();
  const lastSeq = new Map<string, { seq: number; id: string }>();
  for (const e of expected) {
    const got = byId.get(e.id) ?? [];
    if (got.length === 0) { missing.push(e.id); continue; }
    if (got.length > 1) twice.push(e.id);
    const s = got[0];
    if (s.citizenId !== e.citizenId) outOfOrder.push(`${e.id} stored for ${s.citizenId}`);
    const pt = lastTx.get(e.citizenId), ps = lastSeq.get(e.citizenId);
    if (pt && s.tx < pt.tx) outOfOrder.push(`${e.id} (tx ${s.tx}) written before ${pt.id} (tx ${pt.tx})`);
    if (ps && s.seq && s.seq < ps.seq) outOfOrder.push(`${e.id} (seq ${s.seq}) arrived before ${ps.id} (seq ${ps.seq})`);
    lastTx.set(e.citizenId, { tx: s.tx, id: e.id });
    if (s.seq) lastSeq.set(e.citizenId, { seq: s.seq, id: e.id });
  }
  return { missing, twice, unexpected, outOfOrder };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it is true or `ms` pass; returns its last answer. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms: number, everyMs = 50): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(everyMs)) if (await check()) return true;
  return check();
}

/** A whole-number env variable (test bounds), or the default. */
export function envInt(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
}

/** Asserts that `sync.flush(ms)` empties the queue; on failure the diagnostics carry its status and stats. */
export async function assertFlushed(t: { ok(v: unknown, ...rest: any[]): unknown }, sync: { flush(ms: number): Promise<boolean>; status(): object; stats(): object }, ms: number, msg: string): Promise<boolean> {
  const done = await sync.flush(ms);
  t.ok(done, msg, done ? {} : { status: sync.status(), stats: sync.stats() });
  return done;
}
