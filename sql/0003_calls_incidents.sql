-- Calls from the game, per-guild call-report rate limits, incident sheets (Einsatzblätter).

-- A call reported by a game script. States: open -> taken (a dispatcher made an incident sheet of it)
-- or open -> resolved (the game says it is over). At most one open call per (guild, external id):
-- the partial unique index, not a read-then-write, decides concurrent reports of one id.
create table calls (
  guild_id         text not null references guilds(id) on delete cascade,
  id               bigserial,
  external_id      text not null,
  status           text not null default 'open' check (status in ('open', 'taken', 'resolved')),
  kind             text not null check (kind in ('notruf', 'panik', 'alarm', 'hinweis')),
  priority         smallint not null check (priority between 1 and 3),
  title            text not null,
  message          text,
  location         jsonb,                             -- a JSON string, or {x, y, street, postal, text}
  caller           jsonb,                             -- {name, phone}
  source           text,
  report_count     int not null default 1,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  taken_at         timestamptz,
  taken_by_kind    text,
  taken_by_id      text,
  taken_by_name    text,
  incident_number  int,
  resolved_at      timestamptz,
  resolution       text,
  primary key (guild_id, id)
);
create unique index calls_one_open on calls (guild_id, external_id) where status = 'open';
create index calls_by_external_id on calls (guild_id, external_id, created_at desc);

-- Per-guild token bucket of call reports per API key (or session); no row = the default.
create table guild_call_limits (
  guild_id    text primary key references guilds(id) on delete cascade,
  per_minute  int not null check (per_minute between 1 and 6000),
  burst       int not null check (burst between 1 and 1000),
  updated_at  timestamptz not null default now()
);

-- Incident numbers: 1, 2, 3 … per guild; the row lock of the counter serialises creation.
create table incident_counters (
  guild_id     text primary key references guilds(id) on delete cascade,
  last_number  int not null
);

create table incidents (
  guild_id         text not null references guilds(id) on delete cascade,
  number           int not null,
  keyword          text not null,
  location         jsonb,
  priority         smallint not null check (priority between 1 and 3),
  state            text not null default 'open' check (state in ('open', 'closed')),
  version          int not null default 1,              -- bumps with every change of keyword, location, priority, state
  call_id          bigint,
  created_by_kind  text not null,
  created_by_id    text not null,
  created_by_name  text,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  closed_at        timestamptz,
  primary key (guild_id, number),
  foreign key (guild_id, call_id) references calls (guild_id, id) on delete set null (call_id)
);
create unique index incidents_one_per_call on incidents (guild_id, call_id) where call_id is not null;
create index incidents_by_state on incidents (guild_id, state, number desc);

create table incident_units (
  guild_id     text not null,
  number       int not null,
  unit_id      bigint not null,
  assigned_at  timestamptz not null default now(),
  primary key (guild_id, number, unit_id),
  foreign key (guild_id, number) references incidents (guild_id, number) on delete cascade,
  foreign key (guild_id, unit_id) references units (guild_id, id) on delete cascade
);
create index incident_units_by_unit on incident_units (guild_id, unit_id);

-- The timeline of a sheet: notes written by people and the sheet's own changes.
create table incident_entries (
  guild_id  text not null,
  number    int not null,
  id        bigserial,
  kind      text not null check (kind in ('note', 'created', 'updated', 'unit_assigned', 'unit_released', 'closed')),
  text      text not null,
  by_kind   text not null,
  by_id     text not null,
  by_name   text,
  at        timestamptz not null default now(),
  primary key (guild_id, number, id),
  foreign key (guild_id, number) references incidents (guild_id, number) on delete cascade
);

alter table calls add foreign key (guild_id, incident_number) references incidents (guild_id, number) on delete set null (incident_number);
