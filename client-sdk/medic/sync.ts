/**
 * The game-side medic sync (spec §2): every event goes to a write-ahead log on disk first, then to
 * `POST /api/v1/medic/events` in batches, in queue order, one batch in flight.
 *
 * Guarantees:
 * - `enqueue` returns only after its event is in the log (one write(2)): a kill -9 afterwards loses
 *   nothing; fsync every `persistDebounceMs` and on `stop()` covers power loss.
 * - At least once to the server, in order; the server's idempotent ids make it exactly once there.
 *   Only what was not acknowledged is resent after a restart.
 * - A missing key, 401 or 403 never drops anything: the sync waits (status `no_key`/`unauthorized`),
 *   retries every `unauthorizedRetryMs`, and `setApiKey` resumes at once.
 * - An event the server rejects (400/413/415) is removed with a log line: it would never be accepted.
 *   Network errors, 5xx, 404 and 429 are retried with exponential back-off and jitter, never sooner
 *   than the server's Retry-After.
 * - Over `maxQueued` waiting events only `vitals` samples are dropped, oldest first (counted); other
 *   types are kept even past the bound (status message says so).
 */
import { request as httpRequest, RequestError, type HttpResponse } from '../game/http.ts';
import { medicLimits } from '../../contract/medic-limits.ts';
import { errorOf, retryAfterMs } from './answers.ts';
import { createIdMaker, ID_PATTERN } from './ids.ts';
import type { LogFn, MedicSync, MedicSyncOptions, MedicSyncStats, SyncState, SyncStatus } from './sync-api.ts';
import type { MedicEventInput } from './types.ts';
import { Wal } from './wal.ts';

const WAITING = 0, IN_FLIGHT = 1, DONE = 2, DROPPED = 3;
interface Entry { seq: number; id: string; type: string; json: string; vital: boolean; state: number }

const REWRITE_MIN_BYTES = 8 * 1024 * 1024;
/** Body limit of POST /medic/events. */
const ROUTE_BODY_BYTES = medicLimits.bodyBytes;

export function createMedicSync(opts: MedicSyncOptions): MedicSync {
  const persistDebounceMs = opts.persistDebounceMs ?? 2000;
  const batchSize = opts.batchSize ?? 100;
  const maxBatchBytes = opts.maxBatchBytes ?? 8 * 1024 * 1024;
  const maxQueued = opts.maxQueued ?? 50_000;
  const baseMs = opts.backoff?.baseMs ?? 1000, maxMs = opts.backoff?.maxMs ?? 60_000;
  const unauthorizedRetryMs = opts.unauthorizedRetryMs ?? 30_000;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const send = opts.request ?? httpRequest;
  const log: LogFn = opts.log ?? ((level, message) => (level === 'info' ? console.log : console.warn)(`[dt-medic] ${message}`));
  if (!(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= 500)) throw new RangeError('batchSize must be a whole number from 1 to 500');
  if (!(Number.isInteger(maxQueued) && maxQueued >= 1)) throw new RangeError('maxQueued must be a whole number of at least 1');
  if (!(persistDebounceMs >= 0)) throw new RangeError('persistDebounceMs must be at least 0');
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/api/v1/medic/events`;
  let apiKey = opts.apiKey || null;
  const newId = createIdMaker(opts.idPrefix ?? 'dt');

  const wal = new Wal(opts.dir, { segmentBytes: opts.segmentBytes });
  const loaded = wal.load();
  if (loaded.corrupt) log('warn', `${loaded.corrupt} unreadable line(s) in the queue log ${opts.dir} were skipped`);

  let queue: Entry[] = [], head = 0;
  let vitals: Entry[] = [], vHead = 0;
  let live = 0, inFlight: Entry[] = [];
  let lastSeq = loaded.lastSeq, ackSeq = loaded.ackSeq;
  let droppedBytes = 0;
  const counts = { enqueued: 0, applied: 0, duplicates: 0, rejected: 0, dropped: 0, requests: 0 };
  let overBound = false, stopped = false, sending = false, attempt = 0;
  /** After a whole request was refused: batches stay at most this big until the event at fault is found. */
  let splitLimit = batchSize, suspectSeq = 0;
  let sendTimer: ReturnType<typeof setTimeout> | null = null;
  let syncTimer: ReturnType<typeof setTimeout> | null = null;
  let status: SyncStatus = { state: 'ok', message: 'started', queued: 0 };
  const waiters: { upTo: number; resolve(done: boolean): void; timer?: ReturnType<typeof setTimeout> }[] = [];

  for (const r of loaded.records) {
    const e = toEntry(r.seq, r.json);
    queue.push(e);
    if (e.vital) vitals.push(e);
    live++;
  }
  const restored = live;
  if (restored) log('info', `${restored} event(s) from the last run are still to be sent`);
  const relievedAtStart = relieve();
  if (relievedAtStart.length) wal.append([], relievedAtStart.map((e) => e.seq));

  function toEntry(seq: number, json: string): Entry {
    let id = '?', type = '?';
    try {
      const ev = JSON.parse(json) as { id?: unknown; type?: unknown };
      id = String(ev.id);
      type = String(ev.type);
    } catch { /* sent as is; the server says what is wrong */ }
    return { seq, id, type, json, vital: type === 'vitals', state: WAITING };
  }

  function setStatus(state: SyncState, message: string): void {
    const queued = live;
    if (state === status.state && message === status.message) {
      status = { state, message, queued };
      return;
    }
    status = { state, message, queued };
    log(state === 'ok' || state === 'stopped' ? 'info' : 'warn', `${state}: ${message}`);
    try { opts.onStatus?.({ ...status }); } catch (err) { log('error', `onStatus threw: ${(err as Error)?.message}`); }
  }

  /** Drops the oldest waiting vitals while more than maxQueued events wait; returns them (already marked). */
  function relieve(): Entry[] {
    const out: Entry[] = [];
    let waiting = live - inFlight.length;
    while (vHead < vitals.length && vitals[vHead].state >= DONE) vHead++;
    for (let j = vHead; waiting > maxQueued && j < vitals.length; j++) {
      const v = vitals[j];
      if (v.state !== WAITING) continue;
      v.state = DROPPED;
      out.push(v);
      waiting--;
    }
    if (out.length) {
      live -= out.length;
      counts.dropped += out.length;
      for (const v of out) droppedBytes += v.json.length;
    }
    const over = waiting > maxQueued;
    if (over && !overBound) log('warn', `${waiting} events wait, more than maxQueued (${maxQueued}), and none is a vitals sample: all are kept`);
    overBound = over;
    return out;
  }

  function enqueue(input: MedicEventInput | Record<string, unknown>): string {
    if (stopped) throw new Error('medic sync is stopped');
    if (!input || typeof input !== 'object' || Array.isArray(input)) throw new TypeError('a medic event must be an object');
    const ev = input as Record<string, unknown>;
    if (typeof ev.type !== 'string') throw new TypeError('a medic event needs a type');
    if (typeof ev.citizenId !== 'string') throw new TypeError('a medic event needs a citizenId');
    if (ev.id !== undefined && !(typeof ev.id === 'string' && ID_PATTERN.test(ev.id))) throw new TypeError('event id must be 1..64 of A-Z a-z 0-9 . _ : -');
    const id = (ev.id as string | undefined) ?? newId();
    const event = ev.id === undefined || ev.at === undefined ? { ...ev, id, at: ev.at ?? Date.now() } : ev;
    const e: Entry = { seq: lastSeq + 1, id, type: ev.type, json: JSON.stringify(event), vital: ev.type === 'vitals', state: WAITING };
    queue.push(e);
    if (e.vital) vitals.push(e);
    live++;
    const before = { vHead, counts: counts.dropped, droppedBytes, overBound };
    const dropped = relieve();
    try {
      wal.append(e.state === DROPPED ? [] : [{ seq: e.seq, json: e.json }], dropped.map((d) => d.seq));
    } catch (err) { // the disk refused: nothing of this call happened
      for (const d of dropped) d.state = WAITING;
      live += dropped.length - 1;
      queue.pop();
      if (e.vital) vitals.pop();
      ({ vHead, droppedBytes, overBound } = before);
      counts.dropped = before.counts;
      throw err;
    }
    lastSeq = e.seq;
    counts.enqueued++;
    scheduleSync();
    if (!sending && !sendTimer && status.state === 'ok') schedule(0);
    else if (status.state === 'no_key') setStatus('no_key', status.message);
    maybeRewrite();
    return id;
  }

  function scheduleSync(): void {
    if (syncTimer || stopped) return;
    syncTimer = setTimeout(() => {
      syncTimer = null;
      if (!stopped) wal.checkpoint();
    }, persistDebounceMs);
    syncTimer.unref?.();
  }

  function schedule(ms: number): void {
    if (stopped) return;
    if (sendTimer) clearTimeout(sendTimer);
    sendTimer = setTimeout(() => {
      sendTimer = null;
      void pump();
    }, ms);
  }

  function takeBatch(): Entry[] {
    while (head < queue.length && queue[head].state >= DONE) head++;
    if (head > 4096 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
    if (vHead > 4096 && vHead * 2 > vitals.length) {
      vitals = vitals.slice(vHead);
      vHead = 0;
    }
    const batch: Entry[] = [];
    let bytes = 0;
    for (let i = head; i < queue.length && batch.length < splitLimit; i++) {
      const e = queue[i];
      if (e.state !== WAITING) continue;
      if (batch.length && bytes + e.json.length > maxBatchBytes) break;
      batch.push(e);
      bytes += e.json.length + 1;
    }
    return batch;
  }

  async function pump(): Promise<void> {
    if (stopped || sending) return;
    if (!apiKey) {
      setStatus('no_key', 'no API key configured: events are kept on disk, nothing is sent until a key is set');
      return;
    }
    const batch = takeBatch();
    if (!batch.length) {
      if (status.state !== 'ok') setStatus('ok', 'nothing to send');
      settleWaiters();
      return;
    }
    if (batch[0].json.length + 14 > ROUTE_BODY_BYTES) { // can never be sent: the route refuses larger bodies
      reject(batch[0], 413, `the event is larger than the ${ROUTE_BODY_BYTES / 1048576} MiB request limit of POST /medic/events`, 'by the queue');
      complete();
      schedule(0);
      return;
    }
    for (const e of batch) e.state = IN_FLIGHT;
    inFlight = batch;
    sending = true;
    counts.requests++;
    let res: HttpResponse | null = null, failure = '';
    const keyUsed = apiKey;
    try {
      res = await send(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: `{"events":[${batch.map((e) => e.json).join(',')}]}`,
        timeoutMs,
      });
    } catch (err) {
      failure = err instanceof RequestError ? err.message : `request failed: ${(err as Error)?.message ?? String(err)}`;
    }
    sending = false;
    inFlight = [];
    if (stopped) return;
    if (res && res.status === 200 && applyResults(batch, res)) {
      attempt = 0;
      if (batch[batch.length - 1].seq >= suspectSeq) splitLimit = batchSize; // past the refused range
      setStatus('ok', 'connected: events are delivered');
      settleWaiters();
      if (live) schedule(0);
      return;
    }
    for (const e of batch) if (e.state === IN_FLIGHT) e.state = WAITING;
    relieveAndRecord();
    if (!res) return retryLater(`server unreachable (${failure})`);
    const error = errorOf(res);
    if (res.status === 401 || res.status === 403) {
      const why = res.status === 403
        ? 'the key may not use /medic/ (scoped keys never can: use an unscoped key)'
        : 'the key is missing, unknown or revoked';
      setStatus('unauthorized', `${res.status} ${error}: ${why}; all ${live} events are kept, retrying every ${Math.round(unauthorizedRetryMs / 1000)} s`);
      schedule(apiKey === keyUsed ? unauthorizedRetryMs : 0); // a key set meanwhile is tried at once
      return;
    }
    if (res.status === 400 || res.status === 413 || res.status === 415) {
      // The whole request was refused: halve the batch until the one event at fault goes alone.
      if (batch.length > 1) {
        splitLimit = Math.max(1, Math.ceil(batch.length / 2));
        suspectSeq = batch[batch.length - 1].seq;
        schedule(0);
        return;
      }
      reject(batch[0], res.status, error);
      complete();
      splitLimit = batchSize;
      schedule(0);
      return;
    }
    const waitMs = retryAfterMs(res.headers['retry-after']);
    if (res.status === 404) return retryLater(`404 ${error}: the medic module is switched off for this guild, or the URL is wrong`, waitMs);
    retryLater(res.status === 200 ? 'the server answered 200 without one result per event' : `${res.status} ${error}`, waitMs);
  }

  /** 200: marks each event done; false when the answer does not fit the batch (then retried). */
  function applyResults(batch: Entry[], res: HttpResponse): boolean {
    let results: { status?: unknown; code?: unknown; error?: unknown }[];
    try {
      results = (JSON.parse(res.body) as { results: typeof results }).results;
    } catch {
      return false;
    }
    if (!Array.isArray(results) || results.length !== batch.length) return false;
    batch.forEach((e, i) => {
      const r = results[i] ?? {};
      if (r.status === 'applied' || r.status === 'duplicate') {
        counts[r.status === 'applied' ? 'applied' : 'duplicates']++;
        e.state = DONE;
        live--;
      } else reject(e, Number(r.code) || 400, typeof r.error === 'string' ? r.error : 'rejected');
    });
    complete();
    return true;
  }

  function reject(e: Entry, code: number, error: string, by = 'by the server'): void {
    if (e.state !== DONE) {
      if (e.state !== DROPPED) live--;
      e.state = DONE;
    }
    counts.rejected++;
    log('warn', `event ${e.id} (${e.type}) rejected ${by} (${code}: ${error}); removed from the queue, it would never be accepted`);
  }

  /** Advances the acknowledged position over done and dropped events and stores it. */
  function complete(): void {
    while (head < queue.length && queue[head].state >= DONE) head++;
    const ack = head < queue.length ? queue[head].seq - 1 : lastSeq;
    if (ack > ackSeq) {
      ackSeq = ack;
      wal.ack(ackSeq);
    }
    maybeRewrite();
  }

  function relieveAndRecord(): void {
    const dropped = relieve();
    if (dropped.length) wal.append([], dropped.map((d) => d.seq));
  }

  /** When dropped samples fill the sealed segments, rewrite them with only the live events. */
  function maybeRewrite(): void {
    if (droppedBytes < REWRITE_MIN_BYTES || wal.sealedBytes() < REWRITE_MIN_BYTES) return;
    const upTo = wal.sealedMaxSeq();
    const keep = [];
    for (let i = head; i < queue.length && queue[i].seq <= upTo; i++) {
      const e = queue[i];
      if (e.state === WAITING || e.state === IN_FLIGHT) keep.push({ seq: e.seq, json: e.json });
    }
    wal.rewrite(keep);
    droppedBytes = 0;
  }

  function retryLater(message: string, atLeastMs = 0): void {
    const delay = Math.max(atLeastMs, Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30)) * (0.5 + Math.random() / 2));
    attempt++;
    setStatus('retrying', `${message}; ${live} events kept, retrying with back-off`);
    schedule(delay);
  }

  function settleWaiters(): void {
    while (head < queue.length && queue[head].state >= DONE) head++;
    const oldest = head < queue.length ? queue[head].seq : Infinity;
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].upTo < oldest) {
        const [w] = waiters.splice(i, 1);
        if (w.timer) clearTimeout(w.timer);
        w.resolve(true);
      }
    }
  }

  return {
    enqueue,
    newId,
    flush(flushTimeoutMs?: number): Promise<boolean> {
      if (stopped) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const w: (typeof waiters)[number] = { upTo: lastSeq, resolve };
        if (flushTimeoutMs !== undefined) {
          w.timer = setTimeout(() => {
            const at = waiters.indexOf(w);
            if (at >= 0) waiters.splice(at, 1);
            resolve(false);
          }, flushTimeoutMs);
        }
        waiters.push(w);
        settleWaiters();
        if (waiters.includes(w) && !sending) schedule(0);
      });
    },
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      if (sendTimer) clearTimeout(sendTimer);
      if (syncTimer) clearTimeout(syncTimer);
      sendTimer = syncTimer = null;
      wal.close(); // fsync: the resource-stop checkpoint
      setStatus('stopped', `stopped; ${live} events kept on disk for the next start`);
      for (const w of waiters.splice(0)) {
        if (w.timer) clearTimeout(w.timer);
        w.resolve(false);
      }
    },
    stats(): MedicSyncStats {
      return {
        state: status.state, queued: live, inFlight: inFlight.length, ...counts, overBound, restored,
        lastSeq, ackSeq, walBytes: wal.bytesWritten,
      };
    },
    status: () => ({ ...status, queued: live }),
    setApiKey(key: string | null): void {
      apiKey = key || null;
      attempt = 0;
      if (!stopped && !sending) schedule(0);
    },
  };
}
