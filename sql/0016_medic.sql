-- Medic sync: patient files fed by the game (POST /medic/events), citizens' latest states, the
-- rank → care tier mapping. Game timestamps are epoch milliseconds (bigint), as the game sends them.

-- A patient file of a citizen. At most one open file per citizen (the partial unique index); a
-- closed file stays as it is, a later event opens a new one.
create table medic_files (
  guild_id         text not null references guilds(id) on delete cascade,
  id               bigserial,
  citizen_id       text not null,
  name             text,
  opened_at        bigint not null,              -- game time of the event that opened it
  closed_at        bigint,                       -- game time (board closes: server time)
  outcome          text check (outcome in ('discharged', 'deceased', 'respawned', 'closed')),
  last_event_at    bigint not null,              -- newest game time of its events: "activity"
  vitals_swept_to  bigint not null default 0,    -- vital samples before this are downsampled (sweep.ts)
  created_at       timestamptz not null default now(),
  primary key (guild_id, id),
  check ((closed_at is null) = (outcome is null))
);
create unique index medic_files_one_open on medic_files (guild_id, citizen_id) where closed_at is null;
create index medic_files_by_activity on medic_files (guild_id, last_event_at desc, id desc);
create index medic_files_by_citizen on medic_files (guild_id, citizen_id, id desc);
-- files whose vitals the sweep has not reached yet (quiet old files drop out of this index)
create index medic_files_to_sweep on medic_files (opened_at) where vitals_swept_to <= last_event_at;

-- Every event but vital samples, by its game-chosen id (unique per guild across all types,
-- medic_vitals included: the ingest checks both tables under the guild's ingest lock). file_id
-- null: a discharge/death/respawn of a citizen without an open file (kept in their timeline).
-- `seq` orders events of equal game time as they arrived.
create table medic_events (
  guild_id     text not null references guilds(id) on delete cascade,
  event_id     text not null,
  seq          bigint generated always as identity,
  file_id      bigint,
  citizen_id   text not null,
  type         text not null,
  at           bigint not null,
  received_at  timestamptz not null default now(),
  data         jsonb not null,
  primary key (guild_id, event_id),
  foreign key (guild_id, file_id) references medic_files (guild_id, id) on delete cascade
);
create index medic_events_by_file on medic_events (guild_id, file_id, at, seq);
create index medic_events_by_citizen on medic_events (guild_id, citizen_id, at);

-- Vital-sign samples, the bulk: one narrow row each. Raw rows carry their event id (unique per
-- guild); the sweep replaces raw rows older than 30 days by one mean row per file and minute
-- (event_id null, downsampled, `samples` = how many it stands for).
create table medic_vitals (
  guild_id     text not null,
  file_id      bigint not null,
  at           bigint not null,
  event_id     text,
  heart_rate   smallint,
  systolic     smallint,
  diastolic    smallint,
  spo2         smallint,
  resp_rate    smallint,
  temperature  real,
  gcs          smallint,
  downsampled  boolean not null default false,
  samples      int not null default 1,
  foreign key (guild_id, file_id) references medic_files (guild_id, id) on delete cascade
);
create unique index medic_vitals_event on medic_vitals (guild_id, event_id);
create index medic_vitals_by_file on medic_vitals (guild_id, file_id, at);

-- The injuries of a file as they stand now (their history is in medic_events).
create table medic_injuries (
  guild_id    text not null,
  file_id     bigint not null,
  injury_id   text not null,
  body_part   text not null,
  kind        text not null,
  severity    smallint not null,
  bleeding    smallint not null default 0,
  state       text not null default 'open',
  added_at    bigint not null,
  changed_at  bigint not null,
  primary key (guild_id, file_id, injury_id),
  foreign key (guild_id, file_id) references medic_files (guild_id, id) on delete cascade
);

-- X-ray/CT images of imaging events, checked from their bytes like uploads.
create table medic_images (
  guild_id      text not null,
  id            bigserial,
  file_id       bigint not null,
  event_id      text not null,
  content_type  text not null check (content_type in ('image/png', 'image/jpeg', 'image/webp')),
  size          int not null check (size between 1 and 5242880),
  width         int not null,
  height        int not null,
  data          bytea not null,
  primary key (guild_id, id),
  foreign key (guild_id, file_id) references medic_files (guild_id, id) on delete cascade
);
create index medic_images_by_file on medic_images (guild_id, file_id);

-- The latest state of each citizen: last write by game time wins.
create table medic_citizen_states (
  guild_id    text not null references guilds(id) on delete cascade,
  citizen_id  text not null,
  at          bigint not null,
  state       text not null,
  health      smallint,
  armor       smallint,
  conscious   boolean,
  bleeding    smallint,
  position    jsonb,
  name        text,
  updated_at  timestamptz not null default now(),
  primary key (guild_id, citizen_id)
);

-- Rank → care tier (1 first aider .. 4 emergency physician); a deleted rank loses its tier.
create table medic_tiers (
  guild_id  text not null,
  rank_id   text not null,
  tier      smallint not null check (tier between 1 and 4),
  primary key (guild_id, rank_id),
  foreign key (guild_id, rank_id) references ranks (guild_id, id) on delete cascade
);
