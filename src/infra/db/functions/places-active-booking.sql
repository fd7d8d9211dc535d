-- What the placement guards on `events` judge: an event that gives an active booking its place, a
-- create or a reschedule of its times or units (a reschedule that moves nothing is not one).
create or replace function places_active_booking(event_type text, data jsonb) returns boolean
language sql immutable as $$
  select data -> 'booking' is not null and event_booking_is_active(data -> 'booking')
    and not (event_type = 'BookingRescheduled' and data ->> 'previousStartTime' = data -> 'booking' ->> 'startTime'
      and data ->> 'previousEndTime' = data -> 'booking' ->> 'endTime'
      and coalesce((data ->> 'previousUnits')::integer, 1) = event_booking_units(data -> 'booking'))
$$;
