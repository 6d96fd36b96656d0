-- Alarmieren (issue 29): a dispatcher alarms units for an incident sheet; the crew acknowledges.
--
-- The catalogue gains `acknowledges`: a unit that enters such a status acknowledges its alarms
-- (FMS 3 "Einsatz übernommen" by default). Every guild gets code A "Alarmiert" (alarm: true), the
-- status a dispatcher's alarm puts a unit in. Existing guilds get both; an A they made themselves
-- is left as it is.
alter table unit_statuses add column acknowledges boolean not null default false;

create or replace function seed_unit_statuses(g text) returns void language sql as $$
  insert into status_catalogues (guild_id) values (g) on conflict do nothing;
  insert into unit_statuses (guild_id, code, label, color, alarm, acknowledges, position)
  select g, d.code, d.label, d.color, d.alarm, d.acknowledges, d.position from (values
    ('1', 'Einsatzbereit über Funk', '#2e7d32', false, false, 1),
    ('2', 'Einsatzbereit auf Wache', '#1b5e20', false, false, 2),
    ('3', 'Einsatz übernommen', '#f9a825', false, true, 3),
    ('4', 'Am Einsatzort', '#ef6c00', false, false, 4),
    ('5', 'Sprechwunsch', '#1565c0', false, false, 5),
    ('6', 'Nicht einsatzbereit', '#616161', false, false, 6),
    ('7', 'Patient aufgenommen', '#6a1b9a', false, false, 7),
    ('8', 'Am Zielort', '#00838f', false, false, 8),
    ('0', 'Notruf/priorisierter Sprechwunsch', '#c62828', true, false, 9),
    ('A', 'Alarmiert', '#d50000', true, false, 10)
  ) as d(code, label, color, alarm, acknowledges, position)
  on conflict do nothing;
$$;

update unit_statuses set acknowledges = true where code = '3';
insert into unit_statuses (guild_id, code, label, color, alarm, acknowledges, position)
select c.guild_id, 'A', 'Alarmiert', '#d50000', true, false,
  (select coalesce(max(position), 0) + 1 from unit_statuses s where s.guild_id = c.guild_id)
from status_catalogues c
where exists (select 1 from unit_statuses s where s.guild_id = c.guild_id)
on conflict do nothing;

-- Per unit of a sheet: when it was last alarmed for it and when it acknowledged that alarm.
alter table incident_units add column alarmed_at timestamptz;
alter table incident_units add column acknowledged_at timestamptz;

-- An alarm not acknowledged within this many seconds is flagged on the desk.
alter table guilds add column alarm_ack_timeout_s int not null default 60 check (alarm_ack_timeout_s between 10 and 600);

alter table incident_entries drop constraint incident_entries_kind_check;
alter table incident_entries add constraint incident_entries_kind_check
  check (kind in ('note', 'created', 'updated', 'unit_assigned', 'unit_released', 'closed', 'report', 'resolved', 'unit_alarmed', 'unit_acknowledged'));
