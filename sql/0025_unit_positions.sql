-- Unit positions from the game (issue 31). Positions live in memory and go between nodes through
-- the bus; this table holds only the last known one per unit, written at most every 30 s by the
-- node that received it, so a restarted server still shows where units were. `at`: when a server
-- received it; a write never replaces a newer position with an older one.
create table unit_positions (
  guild_id  text not null,
  unit_id   bigint not null,
  x         double precision not null,
  y         double precision not null,
  z         double precision not null,
  heading   double precision not null,
  speed     double precision not null,
  at        timestamptz not null,
  primary key (guild_id, unit_id),
  foreign key (guild_id, unit_id) references units (guild_id, id) on delete cascade
);
