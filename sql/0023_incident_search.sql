-- Incident history search (issue 29): GET /incidents?q=&unit=&from=&to=&cursor= over 100,000 sheets.
--
-- Every sheet carries `search_text`, one lower-case text of what a dispatcher searches for: keyword,
-- location (text, street, postal), the creator's name, and `search_seen` — what the sheet has seen
-- during its life: the game caller's name and phone, every unit ever assigned or alarmed (as
-- `|callsign|`, so `unit=RTW 1` matches exactly, not RTW 10), and every name that wrote to its
-- timeline. `search_seen` only grows: a unit released or moved to another sheet stays findable on
-- this one, as the history it is. Triggers keep it, so every write path (take, attach, alarm,
-- assignment, entries) is covered without knowing about it; they run in the writer's transaction,
-- which already holds the sheet's row lock. A trigram GIN index with the guild id first
-- (btree_gin) answers `like '%term%'`; both extensions ship with PostgreSQL (contrib) and are
-- trusted: the database owner may create them.
create extension if not exists pg_trgm;
create extension if not exists btree_gin;

alter table incidents add column search_seen text not null default '';
alter table incidents add column search_text text generated always as (lower(
  keyword || ' ' ||
  coalesce(case jsonb_typeof(location)
    when 'string' then location #>> '{}'
    when 'object' then coalesce(location ->> 'street', '') || ' ' || coalesce(location ->> 'postal', '') || ' ' || coalesce(location ->> 'text', '')
  end, '') || ' ' ||
  coalesce(created_by_name, '') || ' ' || search_seen)) stored;

-- The game call's caller, when the sheet is made of a call.
create function incidents_search_caller() returns trigger language plpgsql as $$
begin
  if new.call_id is not null then
    select new.search_seen || ' ' || coalesce(c.caller ->> 'name', '') || ' ' || coalesce(c.caller ->> 'phone', '')
      into new.search_seen from calls c where c.guild_id = new.guild_id and c.id = new.call_id;
    new.search_seen := coalesce(new.search_seen, '');
  end if;
  return new;
end $$;
create trigger incidents_search_caller before insert on incidents
  for each row execute function incidents_search_caller();

-- A unit assigned or alarmed: its callsign, once.
create function incident_units_search() returns trigger language plpgsql as $$
declare tag text;
begin
  select '|' || lower(u.callsign) || '|' into tag from units u where u.guild_id = new.guild_id and u.id = new.unit_id;
  if tag is not null then
    update incidents set search_seen = search_seen || ' ' || tag
      where guild_id = new.guild_id and number = new.number and strpos(search_seen, tag) = 0;
  end if;
  return null;
end $$;
create trigger incident_units_search after insert on incident_units
  for each row execute function incident_units_search();

-- Whoever writes to the timeline: their name, once.
create function incident_entries_search() returns trigger language plpgsql as $$
begin
  if new.by_name is not null and new.by_name <> '' then
    update incidents set search_seen = search_seen || ' ' || lower(new.by_name)
      where guild_id = new.guild_id and number = new.number and strpos(search_seen, lower(new.by_name)) = 0;
  end if;
  return null;
end $$;
create trigger incident_entries_search after insert on incident_entries
  for each row execute function incident_entries_search();

-- Sheets written before this migration.
update incidents i set search_seen = concat_ws(' ',
  (select coalesce(c.caller ->> 'name', '') || ' ' || coalesce(c.caller ->> 'phone', '') from calls c where c.guild_id = i.guild_id and c.id = i.call_id),
  (select string_agg('|' || lower(u.callsign) || '|', ' ') from incident_units iu join units u on u.guild_id = iu.guild_id and u.id = iu.unit_id
    where iu.guild_id = i.guild_id and iu.number = i.number),
  (select string_agg(distinct lower(e.by_name), ' ') from incident_entries e where e.guild_id = i.guild_id and e.number = i.number and e.by_name <> ''));

create index incidents_search on incidents using gin (guild_id, search_text gin_trgm_ops);
