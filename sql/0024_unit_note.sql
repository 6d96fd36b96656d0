-- Mein Fahrzeug (issue 29): a crew may send a short note with its status (e.g. with FMS 5
-- "Sprechwunsch": what they want to say). The desk sees it on the unit; the next status change of
-- the unit, by anyone, clears it. Null: no note.
alter table units add column status_note text;
