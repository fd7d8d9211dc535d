-- Contract §26: the transaction that last wrote each row of the organizers' stored events and of
-- their inboxes, for the sync tokens of the user's `bookings/` and `inbox/` calendars (as
-- bookings-changed-in.sql does for bookings): set on insert by the columns' default (migration
-- 0041) and on update here.
create or replace function calendar_row_changed_in() returns trigger language plpgsql as $$
begin
  new.changed_in := pg_current_xact_id();
  return new;
end $$;

drop trigger if exists calendar_events_changed_in on calendar_events;
create trigger calendar_events_changed_in before update on calendar_events
for each row execute function calendar_row_changed_in();

drop trigger if exists calendar_inbox_changed_in on calendar_inbox;
create trigger calendar_inbox_changed_in before update on calendar_inbox
for each row execute function calendar_row_changed_in();
