-- Server emojis of each guild as last synced from Discord, with their images: the board shows them
-- from here, so they keep working while Discord is down, and every node can serve them.
-- `id` is Discord's emoji id (a snowflake, unique across Discord). An emoji's image never changes
-- under its id (Discord lets admins rename one, not replace its picture), so a sync downloads only
-- the images of ids it has not stored yet.
create table emojis (
  guild_id      text not null references guilds(id) on delete cascade,
  id            text not null,
  name          text not null,
  animated      boolean not null,
  -- false while Discord marks it unusable (the guild lost the boost level its slot needs)
  available     boolean not null,
  content_type  text not null check (content_type in ('image/png', 'image/gif', 'image/webp')),
  image         bytea not null check (octet_length(image) between 1 and 262144),
  created_at    timestamptz not null default now(),
  -- the last sync that found it in Discord
  synced_at     timestamptz not null default now(),
  primary key (guild_id, id)
);
