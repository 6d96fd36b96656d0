import type { HttpResponse, RequestOptions } from '../game/http.ts';
import type { MedicEventInput } from './types.ts';

/** The options, status and handle of the medic sync (`createMedicSync` in sync.ts). */
export type SyncState = 'ok' | 'retrying' | 'unauthorized' | 'no_key' | 'stopped';

export interface SyncStatus {
  state: SyncState;
  message: string;
  /** Events waiting or in flight. */
  queued: number;
}

export type LogFn = (level: 'info' | 'warn' | 'error', message: string) => void;

export interface MedicSyncOptions {
  /** Server root, e.g. `https://dispatch.example.org` (without /api/v1). */
  baseUrl: string;
  /** An unscoped `stmp_…` key (scoped keys are 403 on every /medic/ route). Missing: queue only. */
  apiKey?: string | null;
  /** Directory of the write-ahead log (created when missing). One sync per directory. */
  dir: string;
  /** fsync at most this long after a write (default 2000). */
  persistDebounceMs?: number;
  /** Events per request, 1..500 (default 100). */
  batchSize?: number;
  /** JSON bytes per request (default 8 MiB; the route takes 16 MiB). A larger single event goes alone. */
  maxBatchBytes?: number;
  /** Waiting events above which vitals samples are dropped, oldest first (default 50 000). */
  maxQueued?: number;
  /** Back-off after a failed attempt n: min(maxMs, baseMs·2ⁿ), jittered to 50–100 % (default 1 s, 60 s). */
  backoff?: { baseMs?: number; maxMs?: number };
  /** Retry interval while the key is refused (default 30 000). */
  unauthorizedRetryMs?: number;
  /** Per request (default 30 000). */
  timeoutMs?: number;
  /** Prefix of generated event ids (default `dt`; the example uses the resource name). */
  idPrefix?: string;
  /** WAL segment size (default 4 MiB). */
  segmentBytes?: number;
  onStatus?: (status: SyncStatus) => void;
  log?: LogFn;
  /** HTTP sender (default: client-sdk/game/http.ts, fetch or node:http). */
  request?: (url: string, opts: RequestOptions) => Promise<HttpResponse>;
}

export interface MedicSyncStats {
  state: SyncState;
  queued: number;
  inFlight: number;
  /** Since this start. */
  enqueued: number;
  applied: number;
  duplicates: number;
  rejected: number;
  /** Vitals samples dropped under pressure since this start. */
  dropped: number;
  /** More non-vitals events are waiting than `maxQueued` allows (kept all the same). */
  overBound: boolean;
  /** Events found in the log at start (not yet acknowledged last time). */
  restored: number;
  /** Highest sequence number written (1, 2, … over the life of the directory). */
  lastSeq: number;
  ackSeq: number;
  /** Bytes this process wrote to the log (records, tombstones, ack, rewrites). */
  walBytes: number;
  requests: number;
}

export interface MedicSync {
  /** Writes the event to disk and queues it; returns its id (made when missing). */
  enqueue(event: MedicEventInput | Record<string, unknown>): string;
  /** Sends now (a back-off wait is cut short); true once everything enqueued before is done, false at timeoutMs or stop. */
  flush(timeoutMs?: number): Promise<boolean>;
  /** fsyncs and closes the log; nothing is sent after. Safe to call twice. */
  stop(): Promise<void>;
  stats(): MedicSyncStats;
  status(): SyncStatus;
  /** Swaps the key (a revoked one replaced): the queue resumes at once. */
  setApiKey(key: string | null): void;
  /** A fresh event id (`<idPrefix>-<start>-<n>`). */
  newId(): string;
}
