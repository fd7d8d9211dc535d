-- Contract §25: a booking's calendar object names its resource (LOCATION: the resource's name, else
-- its zone or device id), so renaming the resource changes the text of each of its objects. The
-- bookings the calendars list (active ones, ending at most 180 days ago, with a day to spare) are marked
-- as written by the rename's transaction (bookings_changed_in), and the next sync-collection of
-- every calendar holding them reports them with their new etags.
create or replace function resource_renamed_touch_bookings() returns trigger language plpgsql as $$
begin
  update bookings set changed_in = pg_current_xact_id()
  where bookable_resource_id = new.id and booking_is_active(status, is_series_parent) and end_time > now() - interval '181 days';
  return null;
end $$;

drop trigger if exists resource_renamed_touch_bookings on resources;
create trigger resource_renamed_touch_bookings after update on resources
for each row when (old.resource_name is distinct from new.resource_name or old.resource_id is distinct from new.resource_id)
execute function resource_renamed_touch_bookings();
