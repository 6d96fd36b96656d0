-- Medic ingest hot path: every batch of game events moves last_event_at of the files it touches.
-- Files keep what their summary needs (open injuries, newest sample), so a batch reads and writes
-- one row per file, and no index names a column a batch changes, so those updates are HOT: no index
-- entries, no index bloat; the fillfactor leaves room on the page for the new row versions. Open
-- files (a guild's current patients) are sorted when listed; closed ones are listed by
-- closed_activity. Besides the primary key, only partial indexes name guild_id, so a batch's file
-- updates (guild_id and ids) are primary-key probes whatever the statistics say, not a scan of the
-- guild's files. Written to also run on a database that ran an unreleased 0016 which already had
-- some of this (if [not] exists): every path ends with the same schema.

drop index if exists medic_files_by_activity;     -- named last_event_at: no batch update was HOT
drop index if exists medic_files_by_citizen;      -- nothing read it; the foreign-key checks of samples and events were planned on it as a scan of the guild's files
drop index if exists medic_files_to_sweep;        -- its predicate named last_event_at (sweep.ts walks medic_files_by_opening)
drop index if exists medic_files_closed_by_activity;
drop index if exists medic_files_by_opening;
drop index if exists medic_events_by_citizen;     -- nothing reads it
drop index if exists medic_events_by_file;
drop index if exists medic_vitals_by_file;

alter table medic_files set (fillfactor = 70);
alter table medic_files add column if not exists closed_activity bigint;           -- last_event_at once closed (it never changes after): the index of closed files
alter table medic_files add column if not exists open_injuries int not null default 0; -- injuries not healed, kept by the ingest (the only writer of injuries)
alter table medic_files add column if not exists last_vitals jsonb;                -- the newest vital sample by game time, as received

-- The files as the ingest would have kept them: the summary's former subqueries, once.
update medic_files f set
  closed_activity = case when f.closed_at is not null then f.last_event_at end,
  open_injuries = (select count(*) from medic_injuries i where i.guild_id = f.guild_id and i.file_id = f.id and i.state <> 'healed'),
  last_vitals = (select jsonb_build_object('at', v.at, 'heartRate', v.heart_rate, 'systolic', v.systolic, 'diastolic', v.diastolic, 'spo2', v.spo2,
      'respRate', v.resp_rate, 'temperature', v.temperature, 'gcs', v.gcs)
    from medic_vitals v where v.guild_id = f.guild_id and v.file_id = f.id order by v.at desc limit 1);

alter table medic_files drop constraint if exists medic_files_closed_activity_check;
alter table medic_files drop constraint if exists medic_files_check1; -- the unreleased 0016's name for the same check
alter table medic_files add constraint medic_files_closed_activity_check check ((closed_at is null) = (closed_activity is null));

create index medic_files_closed_by_activity on medic_files (guild_id, closed_activity desc, id desc) where closed_at is not null;
-- The sweep's walk: (opened_at, id) is its keyset, one pass over the index per sweep.
create index medic_files_by_opening on medic_files (opened_at, id);

-- Read by file without guild_id in the key (file ids are unique across guilds; reads also filter
-- guild_id): smaller entries, and the primary key (the id index of samples) stays the only index a
-- guild_id condition can use, so the ingest's id probes cannot be planned as a scan of the guild's
-- rows, whatever the statistics say.
create index medic_events_by_file on medic_events (file_id, at, seq);
create index medic_vitals_by_file on medic_vitals (file_id, at);
