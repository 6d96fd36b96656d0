-- Foundation: guilds, people, ranks, access, time clock, dispatcher slots, units, audit, event log.
-- Every guild-owned table leads with guild_id; every look-up is by (guild_id, ...).

create table guilds (
  id          text primary key,
  name        text not null,
  modules     jsonb not null default '{}'::jsonb,   -- { moduleName: boolean }, missing = default on
  tab_order   jsonb not null default '[]'::jsonb,
  branding    jsonb not null default '{}'::jsonb,   -- { color, title, ... }
  icon_png    bytea,                                 -- uploaded icon; null = generated default
  created_at  timestamptz not null default now()
);

create table ranks (
  guild_id      text not null references guilds(id) on delete cascade,
  id            text not null,
  name          text not null,
  position      int  not null default 0,
  capabilities  text[] not null default '{}',
  primary key (guild_id, id),
  unique (guild_id, name)
);

create table people (
  guild_id    text not null references guilds(id) on delete cascade,
  user_id     text not null,
  nickname    text not null,
  badge       text,                                  -- normalised, at least two digits
  rank_id     text,
  is_admin    boolean not null default false,
  created_at  timestamptz not null default now(),
  primary key (guild_id, user_id),
  unique (guild_id, badge),
  foreign key (guild_id, rank_id) references ranks (guild_id, id) on delete set null (rank_id)
);
create index people_by_user on people (user_id);

create table api_keys (
  id           bigserial primary key,
  guild_id     text not null references guilds(id) on delete cascade,
  name         text not null,
  key_hash     bytea not null unique,                -- sha256 of the whole key; the key itself is never stored
  last4        text not null,
  scopes       text[],                               -- null = unscoped
  created_at   timestamptz not null default now(),
  last_used_at timestamptz
);
create index api_keys_by_guild on api_keys (guild_id);

create table login_tokens (
  token_hash  bytea primary key,
  guild_id    text not null references guilds(id) on delete cascade,
  user_id     text not null,
  expires_at  timestamptz not null,
  used_at     timestamptz
);

create table sessions (
  token_hash   bytea primary key,
  user_id      text not null,
  created_at   timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at   timestamptz not null
);
create index sessions_by_user on sessions (user_id);

create table preferences (
  guild_id  text not null references guilds(id) on delete cascade,
  user_id   text not null,
  prefs     jsonb not null default '{}'::jsonb,
  primary key (guild_id, user_id)
);

create table shifts (
  id            bigserial primary key,
  guild_id      text not null references guilds(id) on delete cascade,
  user_id       text not null,
  clock_in_at   timestamptz not null default now(),
  clock_out_at  timestamptz,
  status        text not null default 'OPEN' check (status in ('OPEN', 'CLOSED', 'AUTO_CLOSED')),
  foreign key (guild_id, user_id) references people (guild_id, user_id) on delete cascade
);
-- One open shift per person: this index, not a read-then-write, decides concurrent clock-ins.
create unique index shifts_one_open on shifts (guild_id, user_id) where clock_out_at is null;
create index shifts_by_person on shifts (guild_id, user_id, clock_in_at desc);

create table dispatcher_slots (
  guild_id  text not null references guilds(id) on delete cascade,
  slot      int  not null,
  user_id   text not null,
  since     timestamptz not null default now(),
  primary key (guild_id, slot),
  foreign key (guild_id, user_id) references people (guild_id, user_id) on delete cascade
);

create table units (
  guild_id      text not null references guilds(id) on delete cascade,
  id            bigserial,
  callsign      text not null,
  label         text not null default '',
  org_unit      text not null default '',
  status        text not null default '2',
  status_since  timestamptz not null default now(),
  primary key (guild_id, id),
  unique (guild_id, callsign)
);

create table unit_members (
  guild_id  text not null,
  unit_id   bigint not null,
  user_id   text not null,
  since     timestamptz not null default now(),
  primary key (guild_id, user_id),                   -- one unit at a time
  foreign key (guild_id, unit_id) references units (guild_id, id) on delete cascade,
  foreign key (guild_id, user_id) references people (guild_id, user_id) on delete cascade
);

create table audit_log (
  id          bigserial primary key,
  guild_id    text not null references guilds(id) on delete cascade,
  actor_kind  text not null,                         -- 'session' | 'key' | 'system'
  actor_id    text not null,
  action      text not null,
  data        jsonb not null default '{}'::jsonb,
  at          timestamptz not null default now()
);
create index audit_by_guild on audit_log (guild_id, at desc);

-- Event log (outbox): one stream per guild with a contiguous seq; every transaction that touches
-- update topics writes one event (its deltas per topic) with the stream's next seq, in the same
-- transaction as the change. The stream row lock makes seq order = commit order. `epoch` changes
-- only if a guild's history is ever reset.
create table event_streams (
  guild_id  text primary key references guilds(id) on delete cascade,
  epoch     text not null,
  seq       bigint not null
);

create table events (
  guild_id    text not null references event_streams(guild_id) on delete cascade,
  seq         bigint not null,
  topics      text[] not null,
  deltas      jsonb not null,                        -- { topic: [op, ...] }
  created_at  timestamptz not null default now(),
  primary key (guild_id, seq)
);
