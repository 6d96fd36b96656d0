-- The clock statements write a shift and an event on every clock-in and clock-out: two checks
-- they paid for and did not need.
--
-- shifts.guild_id referenced guilds as well as (guild_id, user_id) referencing people, whose
-- guild_id references guilds: the second already guarantees the first (as for personnel_history).
alter table shifts drop constraint if exists shifts_guild_id_fkey;

-- An event's deltas are written once, as built, and only ever read back whole: json keeps the text
-- as it is, where jsonb parsed it into its binary form on every write (the clock statements built
-- their deltas with jsonb functions, the costliest part of the statement after the writes).
alter table events alter column deltas type json using deltas::json;
