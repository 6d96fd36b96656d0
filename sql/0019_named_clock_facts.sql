-- The clock statements store the facts of a clock-in or clock-out as a named, versioned JSON object
-- `{"v": 1, "kind": "clockIn", "userId": …}` (domains/timeclock/events.ts) instead of the positional
-- array `[kind, …fields]` that 0007 introduced. Rows written before keep their arrays; the server
-- reads both (store/event-codec.ts). Nothing to convert: only what the column may hold is said anew.
comment on column events.deltas is
  'The event''s deltas as { topic: [op, ...] }, or the facts they derive from: { "v": version, "kind": ..., ... }, or, in rows written before 0019, [kind, ...] (see server/store/event-codec.ts).';
