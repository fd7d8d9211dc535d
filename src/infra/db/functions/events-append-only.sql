-- The log is append-only: a changed or removed event would break the hash chain silently otherwise.
create or replace function refuse_event_change() returns trigger language plpgsql as $$
begin
  raise exception 'events are append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end $$;

drop trigger if exists events_append_only on events;
create trigger events_append_only before update or delete or truncate on events
for each statement execute function refuse_event_change();
