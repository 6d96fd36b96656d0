-- Call triage (issue 29): a dispatcher dismisses a game call with a reason, or attaches it to an open
-- incident sheet instead of opening a new one.
--
-- `dismissed` is a final state like `resolved`: who, when and why are kept on the call. An attached
-- call is `taken` (its incident_number is the sheet it was attached to, taken_at/taken_by say when
-- and by whom); attached_at tells it from a call a sheet was made of.
alter table calls drop constraint calls_status_check;
alter table calls add constraint calls_status_check check (status in ('open', 'taken', 'resolved', 'dismissed'));

alter table calls add column dismissed_at timestamptz;
alter table calls add column dismissed_by_kind text;
alter table calls add column dismissed_by_id text;
alter table calls add column dismissed_by_name text;
alter table calls add column dismiss_reason text;
alter table calls add column attached_at timestamptz;

-- The calls of a sheet (GET /incidents/{number}/calls): the one it was made of and those attached.
create index calls_by_incident on calls (guild_id, incident_number) where incident_number is not null;
