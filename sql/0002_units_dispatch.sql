-- Units and dispatch: the per-guild unit status catalogue, the stand-by roster, and the rules the
-- foundation's unit tables need.

-- One row per guild: the catalogue's lock. Status changes and unit writes take it FOR SHARE,
-- catalogue edits FOR UPDATE, so the alarm set a unit write sees is the one its event is ordered
-- after (the alarm topic and the overview's alarm counter stay exact under concurrent edits).
create table status_catalogues (
  guild_id  text primary key references guilds(id) on delete cascade
);

create table unit_statuses (
  guild_id  text not null references status_catalogues(guild_id) on delete cascade,
  code      text not null check (code ~ '^[0-9A-Za-z]{1,4}$'),
  label     text not null,
  color     text not null check (color ~ '^#[0-9a-f]{6}$'),
  alarm     boolean not null default false,
  position  int not null default 0,
  primary key (guild_id, code)
);

-- The German FMS codes (DESIGN §7); every guild starts with them and admins edit them from there.
create function seed_unit_statuses(g text) returns void language sql as $$
  insert into status_catalogues (guild_id) values (g) on conflict do nothing;
  insert into unit_statuses (guild_id, code, label, color, alarm, position)
  select g, d.code, d.label, d.color, d.alarm, d.position from (values
    ('1', 'Einsatzbereit über Funk', '#2e7d32', false, 1),
    ('2', 'Einsatzbereit auf Wache', '#1b5e20', false, 2),
    ('3', 'Einsatz übernommen', '#f9a825', false, 3),
    ('4', 'Am Einsatzort', '#ef6c00', false, 4),
    ('5', 'Sprechwunsch', '#1565c0', false, 5),
    ('6', 'Nicht einsatzbereit', '#616161', false, 6),
    ('7', 'Patient aufgenommen', '#6a1b9a', false, 7),
    ('8', 'Am Zielort', '#00838f', false, 8),
    ('0', 'Notruf/priorisierter Sprechwunsch', '#c62828', true, 9)
  ) as d(code, label, color, alarm, position)
  on conflict do nothing;
$$;

create function guilds_seed_unit_statuses() returns trigger language plpgsql as $$
begin
  perform seed_unit_statuses(new.id);
  return new;
end $$;

create trigger guilds_seed_unit_statuses after insert on guilds
  for each row execute function guilds_seed_unit_statuses();

select seed_unit_statuses(id) from guilds;

-- Callsigns are unique per guild regardless of case ("RTW-1" and "rtw-1" are one unit).
create unique index units_callsign_ci on units (guild_id, lower(callsign));
create index units_by_status on units (guild_id, status);
create index unit_members_by_unit on unit_members (guild_id, unit_id);
create index dispatcher_slots_by_person on dispatcher_slots (guild_id, user_id);

-- Stand-by roster: people who can be alarmed while off the board. Independent of the time clock.
create table standby (
  guild_id  text not null,
  user_id   text not null,
  since     timestamptz not null default now(),
  primary key (guild_id, user_id),
  foreign key (guild_id, user_id) references people (guild_id, user_id) on delete cascade
);
