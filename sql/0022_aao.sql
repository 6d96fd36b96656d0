-- Alarm- und Ausrückeordnung (AAO, issue 29): units get a type from a per-guild catalogue, a
-- keyword catalogue maps an Einsatzstichwort to the unit types (and counts) it needs and a default
-- priority, and the status catalogue says which statuses count as available for a proposal.

-- Unit types (RTW, NEF, HLF …): a code unique per guild in any case, a label, a display position.
create table unit_types (
  guild_id  text not null references guilds(id) on delete cascade,
  code      text not null,
  label     text not null default '',
  position  int not null default 0,
  primary key (guild_id, code)
);
create unique index unit_types_code_ci on unit_types (guild_id, lower(code));

-- A unit's type: one of its guild's types or none. A type in use cannot be deleted (no action);
-- respelling a code (PUT with another case) follows into units and requirements.
alter table units add column type text;
alter table units add constraint units_type_fkey foreign key (guild_id, type)
  references unit_types (guild_id, code) on update cascade;
create index units_by_type on units (guild_id, type) where type is not null;

-- The keyword catalogue. Keywords are stored with their white space collapsed; one per guild in any case.
create table aao_keywords (
  id          bigint generated always as identity primary key,
  guild_id    text not null references guilds(id) on delete cascade,
  keyword     text not null,
  priority    smallint not null check (priority between 1 and 3),
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now()
);
create unique index aao_keywords_ci on aao_keywords (guild_id, lower(keyword));

-- What a keyword sends: `count` units of `type`, in the order the rows were written (`ord`).
create table aao_requirements (
  keyword_id  bigint not null references aao_keywords(id) on delete cascade,
  ord         smallint not null,
  guild_id    text not null,
  type        text not null,
  count       smallint not null check (count between 1 and 20),
  primary key (keyword_id, ord),
  unique (keyword_id, type),
  foreign key (guild_id, type) references unit_types (guild_id, code) on update cascade
);
create index aao_requirements_by_type on aao_requirements (guild_id, type);

-- Statuses a proposal may take units from (FMS 1 and 2 unless the guild says otherwise).
alter table unit_statuses add column available boolean not null default false;
update unit_statuses set available = true where code in ('1', '2');

create or replace function seed_unit_statuses(g text) returns void language sql as $$
  insert into status_catalogues (guild_id) values (g) on conflict do nothing;
  insert into unit_statuses (guild_id, code, label, color, alarm, acknowledges, available, position)
  select g, d.code, d.label, d.color, d.alarm, d.acknowledges, d.available, d.position from (values
    ('1', 'Einsatzbereit über Funk', '#2e7d32', false, false, true, 1),
    ('2', 'Einsatzbereit auf Wache', '#1b5e20', false, false, true, 2),
    ('3', 'Einsatz übernommen', '#f9a825', false, true, false, 3),
    ('4', 'Am Einsatzort', '#ef6c00', false, false, false, 4),
    ('5', 'Sprechwunsch', '#1565c0', false, false, false, 5),
    ('6', 'Nicht einsatzbereit', '#616161', false, false, false, 6),
    ('7', 'Patient aufgenommen', '#6a1b9a', false, false, false, 7),
    ('8', 'Am Zielort', '#00838f', false, false, false, 8),
    ('0', 'Notruf/priorisierter Sprechwunsch', '#c62828', true, false, false, 9),
    ('A', 'Alarmiert', '#d50000', true, false, false, 10)
  ) as d(code, label, color, alarm, acknowledges, available, position)
  on conflict do nothing;
$$;
