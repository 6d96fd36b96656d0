-- Sessions of the terminal alarm client (`dispatch-terminal alarm`): a station PC signs in once and
-- must stay signed in while it runs. Such a session has no absolute end (expires_at = 'infinity', so
-- every `expires_at > now()` check holds) but keeps the idle limit: the running client touches it;
-- a client switched off for longer than the idle limit needs a new login link. Logout and deletion
-- end it like any session.

alter table sessions add column kind text not null default 'browser' check (kind in ('browser', 'alarm'));
alter table sessions add constraint sessions_end_by_kind check ((kind = 'alarm') = (expires_at = 'infinity'));
