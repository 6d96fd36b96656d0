-- The guild's map (issue 31): the image the board's Karte tab draws (an upload of the same guild:
-- the composite foreign key makes another guild's upload impossible; deleting the upload clears
-- it), its calibration by two points (pixel px/py on the image, game x/y; per axis linear, see
-- server/domains/map/README.md), and when a unit's position counts as stale. A calibration belongs
-- to the image it was made for: it is read only while the map has an image, and a new image
-- without a calibration of its own clears it. One row per guild; no row: the defaults.
create table map_settings (
  guild_id             text primary key references guilds(id) on delete cascade,
  image_upload_id      bigint,
  calibration          jsonb,  -- {"points": [{px, py, x, y}, {px, py, x, y}]}, checked by the service
  stale_after_seconds  int not null default 60 check (stale_after_seconds between 10 and 3600),
  updated_at           timestamptz not null default now(),
  foreign key (guild_id, image_upload_id) references uploads (guild_id, id) on delete set null (image_upload_id)
);

-- The postal layer: what FiveM postal resources ship ([{code, x, y}]), replaced as a whole.
-- Codes are unique per guild in any case; a call reported with a postal finds its point by
-- lower(code).
create table map_postals (
  guild_id  text not null references guilds(id) on delete cascade,
  code      text not null check (length(code) between 1 and 20),
  x         double precision not null,
  y         double precision not null
);
create unique index map_postals_code on map_postals (guild_id, lower(code));
