-- Long shifts by start too, bounded: those of 1 to 8 days lie in [F − 8 days, T), an index range
-- as long as the period plus 8 days. Only the very rare longer ones (none once a guild's
-- max_shift_ms, at most 7 days, closes forgotten shifts) are found by their end: the index by end
-- of sql/0012 read every long shift after the period's start, up to the end of the history.
drop index shifts_long_by_end;
-- The upper bound is part of the predicate, so the planner never takes this index for the
-- very-long branch (it would read half the history).
create index shifts_long_by_start on shifts (guild_id, clock_in_at) include (user_id, clock_out_at)
  where clock_out_at - clock_in_at > interval '1 day' and clock_out_at - clock_in_at <= interval '8 days';
create index shifts_very_long_by_end on shifts (guild_id, clock_out_at) include (user_id, clock_in_at)
  where clock_out_at - clock_in_at > interval '8 days';
-- Row estimates for the length tiers: without them the planner guessed tens of thousands of long
-- shifts where there were none, and chose parallel plans for a few thousand rows.
create statistics shifts_length on (clock_out_at - clock_in_at) from shifts;
