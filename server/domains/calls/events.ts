import type { GuildEvent } from '../../../contract/topics.ts';
import type { CallOut } from './schema.ts';
import { liveCall, toCall } from './store.ts';

/**
 * What the events table stores for a call report written by the one-statement report
 * (report-store.ts): its facts, `{ v: 1, kind: 'callReported', inserted, call }` with `call` the
 * call's row as PostgreSQL's `to_json` writes it (snake_case columns, timestamps as text), not the
 * topic deltas; the deltas are derived here wherever such an event comes out of the database (the
 * statement's own answer and the replay of the log, store/event-codec.ts), as the clock's are.
 * A change to the fields needs a new version `v`, and this must go on reading every version written.
 */
export interface CallReportedFacts { v: 1; kind: 'callReported'; inserted: boolean; call: Record<string, unknown> }

/** Timestamp columns of a call, parsed to `Date` (µs dropped, like the `Date` postgres.js makes). */
const times = ['created_at', 'updated_at', 'taken_at', 'attached_at', 'resolved_at', 'dismissed_at'] as const;

/** A call from its row as `to_json` writes it. */
export function callOfJson(row: Record<string, unknown>): CallOut {
  const parsed: Record<string, unknown> = { ...row };
  for (const column of times) if (typeof row[column] === 'string') parsed[column] = new Date(row[column] as string);
  return toCall(parsed);
}

export function readCallReported(facts: CallReportedFacts): { inserted: boolean; call: CallOut } {
  if (facts.v !== 1) throw new Error(`callReported facts of version ${JSON.stringify(facts.v)}: this server reads version 1`);
  return { inserted: facts.inserted, call: callOfJson(facts.call) };
}

/** The open call enters or changes in `calls`; a new one raises `overview.openCalls`. */
export function callReportedDeltas({ inserted, call }: { inserted: boolean; call: CallOut }): GuildEvent['deltas'] {
  const deltas: GuildEvent['deltas'] = { calls: [{ op: 'upsert', key: call.externalId, value: liveCall(call) }] };
  if (inserted) deltas.overview = [{ op: 'add', field: 'openCalls', by: 1 }];
  return deltas;
}
