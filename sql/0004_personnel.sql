-- Personnel sheets: organisation unit of a person, the personnel history, and rank names unique
-- regardless of case (ranks are looked up by id or by case-insensitive name).

alter table people add column org_unit text;          -- null = none

create unique index ranks_name_ci on ranks (guild_id, lower(name));

create table personnel_history (
  id         bigserial primary key,
  guild_id   text not null,
  user_id    text not null,
  kind       text not null check (kind in ('hired', 'promotion', 'demotion', 'rank_change', 'note', 'warning', 'commendation', 'training', 'left')),
  text       text not null default '',
  from_rank  text,                                     -- rank names at the time (rank changes only)
  to_rank    text,
  by_kind    text not null,                            -- 'session' | 'key' | 'system'
  by_id      text not null,
  at         timestamptz not null default now(),
  foreign key (guild_id, user_id) references people (guild_id, user_id) on delete cascade
);
create index personnel_history_by_person on personnel_history (guild_id, user_id, id desc);
