import type { Op } from './topics.ts';

/** A hot topic's state: a keyed map (units by callsign, onDuty by user id, …) or counters (overview). */
export type TopicState = Record<string, unknown>;

/**
 * Applies one op to a topic state, in place. Pure data in, pure data out; the server's hub and the
 * client SDK run this same function, so a board that applies every delta in order ends equal to a
 * fresh snapshot. Unknown ops are notices and change nothing.
 */
export function applyOp(state: TopicState, op: Op): void {
  switch (op.op) {
    case 'upsert':
      state[op.key as string] = op.value;
      return;
    case 'remove':
      delete state[op.key as string];
      return;
    case 'patch': {
      const current = state[op.key as string];
      if (current && typeof current === 'object') state[op.key as string] = { ...current, ...(op.value as object) };
      return;
    }
    case 'unlink': {
      const current = state[op.key as string] as Record<string, unknown> | undefined;
      const list = current?.[op.field as string];
      if (Array.isArray(list)) {
        state[op.key as string] = { ...current, [op.field as string]: list.filter((item) => (item as { id?: unknown }).id !== op.id) };
      }
      return;
    }
    case 'add':
      // Only to a counter the state holds: a board's overview holds the counters its rights show,
      // and a counter it was not given (rights that grew since its snapshot) stays out until the next one.
      if (typeof state[op.field as string] === 'number') state[op.field as string] = (state[op.field as string] as number) + (op.by as number);
      return;
    case 'set':
      state[op.field as string] = op.value;
      return;
  }
}

export function applyOps(state: TopicState, ops: readonly Op[]): void {
  for (const op of ops) applyOp(state, op);
}
