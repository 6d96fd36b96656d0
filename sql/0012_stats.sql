-- Statistics: the guild's clock settings, indexes that make a period's duty time cost what the period
-- holds (not the years of history), and public chart links.

-- time_zone: periods (a day, a week, a month) are local days of this IANA zone.
-- max_shift_ms: a shift open longer than this is closed automatically (status AUTO_CLOSED); null = never.
-- min_on_duty: the staffing minimum the heatmap measures understaffing against; 0 = none set.
alter table guilds add column time_zone text not null default 'Europe/Berlin';
alter table guilds add column max_shift_ms bigint check (max_shift_ms between 3600000 and 604800000);
alter table guilds add column min_on_duty int not null default 0 check (min_on_duty between 0 and 1000);

-- A period [F, T) holds every shift that overlaps it. Shifts of at most a day are found by their
-- start alone, in [F - 1 day, T): an index range as long as the period plus a day. Longer closed
-- shifts (forgotten clock-outs) are rare and have an index of their own, by end; open shifts have
-- shifts_one_open. Both indexes carry the columns the sums read, so the sums never visit the table.
create index shifts_by_start on shifts (guild_id, clock_in_at) include (user_id, clock_out_at)
  where clock_out_at is not null;
create index shifts_long_by_end on shifts (guild_id, clock_out_at) include (user_id, clock_in_at)
  where clock_out_at - clock_in_at > interval '1 day';

-- A public chart link: GET /embed/chart/{token}.png renders the chart with its stored parameters,
-- current each time. The token is the only access and is stored as its SHA-256 hash, like API keys.
create table chart_links (
  guild_id         text not null references guilds(id) on delete cascade,
  id               bigserial,
  token_hash       bytea not null unique,
  token_last4      text not null,
  chart            text not null,                -- e.g. 'leaderboard/bars', 'user/trend'
  params           jsonb not null,               -- the chart's query parameters, as validated
  label            text not null default '',
  created_by_kind  text not null,
  created_by_id    text not null,
  created_at       timestamptz not null default now(),
  revoked_at       timestamptz,
  last_fetched_at  timestamptz,
  fetch_count      bigint not null default 0,
  primary key (guild_id, id)
);
