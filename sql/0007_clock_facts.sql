-- The clock statements store the facts of a clock-in or clock-out in events.deltas as a JSON array
-- `[kind, …fields]` (domains/timeclock/events.ts; the server derives the topic deltas from them on
-- the way out: store/event-codec.ts). Other events keep their `{ topic: [op, …] }` object.
comment on column events.deltas is
  'The event''s deltas as { topic: [op, ...] }, or the facts they derive from as [kind, ...] (see server/store/event-codec.ts).';

-- Every event's seq comes from its stream row, updated in the same statement (store/outbox.ts), so
-- an event cannot name a guild without a stream. The foreign key that checked it anyway ran a
-- trigger query and took a key-share lock on the stream row on every write: about 6% of the clock
-- statements' instructions. Its ON DELETE CASCADE stays, as a trigger that only runs on delete.
alter table events drop constraint if exists events_guild_id_fkey;

create function events_follow_their_stream() returns trigger language plpgsql as $$
begin
  delete from events where guild_id = old.guild_id;
  return old;
end
$$;

create trigger events_follow_their_stream after delete on event_streams
  for each row execute function events_follow_their_stream();
