-- Incident metrics (GET /stats/einsatz): every figure of a period is read through an index range on
-- the period's instants, so its cost follows what the period holds, not the years of history. Each
-- index carries the columns its aggregate reads, so the aggregates need not visit the table.

-- Calls reported in the period: by kind, priority and what became of them.
create index calls_by_created on calls (guild_id, created_at) include (kind, priority, status, taken_at, report_count);

-- Calls taken in the period: time from report to take.
create index calls_by_taken on calls (guild_id, taken_at) include (created_at) where taken_at is not null;

-- Sheets opened in the period (by priority, from a call or by hand, still open) …
create index incidents_by_created on incidents (guild_id, created_at) include (priority, state, call_id);

-- … and closed in the period (how long they were open).
create index incidents_by_closed on incidents (guild_id, closed_at) include (created_at) where closed_at is not null;

-- Units alarmed to sheets in the period: the timeline's unit_assigned entries are the only record of
-- an assignment that was later released (incident_units keeps only the current ones).
create index incident_entries_unit_assigned on incident_entries (guild_id, at) include (number, text) where kind = 'unit_assigned';
