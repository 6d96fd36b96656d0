-- Uploaded images and letterheads. Images live in PostgreSQL, so every node serves them and a crash
-- during an upload leaves nothing visible: a row is inserted whole, in one statement, after the
-- last byte arrived and the type was decided from the bytes.
create table uploads (
  guild_id         text not null references guilds(id) on delete cascade,
  id               bigserial,
  name             text not null,                -- the client's file name, for people (never used as a path or a type)
  content_type     text not null check (content_type in ('image/png', 'image/jpeg', 'image/webp', 'image/gif')),
  size             int not null check (size between 1 and 5242880),
  width            int not null check (width > 0),
  height           int not null check (height > 0),
  data             bytea not null,
  created_by_kind  text not null,
  created_by_id    text not null,
  created_at       timestamptz not null default now(),
  primary key (guild_id, id),
  check (octet_length(data) = size)
);

-- A letterhead of a guild: what its documents are printed under. `logo_upload_id` names an upload of
-- the same guild (the composite foreign key makes another guild's upload impossible); deleting the
-- upload clears the logo. `position` orders them (PUT /letterheads/order); `version` is bumped by
-- every change (PATCH with a stale version is 409).
create table letterheads (
  guild_id         text not null references guilds(id) on delete cascade,
  id               bigserial,
  name             text not null,
  organisation     text not null default '',
  address_lines    text[] not null default '{}',
  logo_upload_id   bigint,
  primary_color    text not null default '#c0392b' check (primary_color ~ '^#[0-9a-f]{6}$'),
  secondary_color  text not null default '#2c3e50' check (secondary_color ~ '^#[0-9a-f]{6}$'),
  footer           text not null default '',
  position         int not null default 0,
  version          int not null default 1,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  primary key (guild_id, id),
  unique (guild_id, name),
  foreign key (guild_id, logo_upload_id) references uploads (guild_id, id) on delete set null (logo_upload_id)
);
