-- Calls after a take: a sheet's timeline also records what the game says about its call after the
-- take (`report`: the same externalId reported again while the sheet is open; `resolved`: the game
-- resolved the call), and actions of API keys carry the key's name like sessions carry a nickname.

alter table incident_entries drop constraint incident_entries_kind_check;
alter table incident_entries add constraint incident_entries_kind_check
  check (kind in ('note', 'created', 'updated', 'unit_assigned', 'unit_released', 'closed', 'report', 'resolved'));

-- Records written by keys before keys carried their name: keys are never renamed, so their name now
-- is their name then. A deleted key's records stay without a name.
update calls c set taken_by_name = k.name from api_keys k
  where c.taken_by_kind = 'key' and c.taken_by_name is null and k.guild_id = c.guild_id and k.id::text = c.taken_by_id;
update incidents i set created_by_name = k.name from api_keys k
  where i.created_by_kind = 'key' and i.created_by_name is null and k.guild_id = i.guild_id and k.id::text = i.created_by_id;
update incident_entries e set by_name = k.name from api_keys k
  where e.by_kind = 'key' and e.by_name is null and k.guild_id = e.guild_id and k.id::text = e.by_id;
