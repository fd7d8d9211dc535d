-- Placement guard 30 of `events` (order: placement-10-outside-blackouts.sql).
--
-- Contract §22, combined rooms: the exclusion constraint guards one resource only. Before an event
-- that places an active booking (a create or a reschedule) is inserted, the trigger takes the
-- occupation locks of the resources the booking occupies (its own and, on a whole, its parts), in
-- id order, so that two bookings that may conflict share a lock while bookings of two halves do
-- not; then, with a fresh snapshot, it reads the resources sharing one with it
-- (sharing-resources.sql) and looks for an active booking of one of them whose occupied range
-- overlaps. One in the way means the decision did not see it (it was decided on another
-- resource's stream): the append fails and the command decides again, which answers 409. A change
-- of `parts` takes the same locks (src/commands/resource/update-resource.ts) before it checks the
-- bookings it would make conflict, so the two take turns.
create or replace function hold_shared_occupation() returns trigger language plpgsql as $$
declare
  booking jsonb := new.data -> 'booking';
  resource uuid := (booking ->> 'bookableResourceId')::uuid;
  sharing uuid[];
  occupying uuid[];
  locked uuid[] := '{}';
  other uuid;
  occupied tstzrange;
  hit uuid;
begin
  if not places_active_booking(new.event_type, new.data) then
    return new;
  end if;
  -- The resources this booking occupies: its own and, on a whole, its parts. Two bookings that
  -- may conflict occupy one resource in common or read each other's (a part's booking reads its
  -- wholes' after its own lock, which a whole's booking also takes): locked in id order.
  loop
    occupying := array[resource] || coalesce((select parts from resources where id = resource), '{}');
    exit when occupying <@ locked;
    for other in select unnest(occupying) except select unnest(locked) order by 1 loop
      perform pg_advisory_xact_lock(occupation_lock_key(other));
      locked := locked || other;
    end loop;
  end loop;
  sharing := sharing_resources(resource);
  if cardinality(sharing) = 0 then
    return new;
  end if;
  occupied := event_booking_occupied_range(booking);
  foreach other in array sharing loop
    select b.id into hit from bookings b
    where b.bookable_resource_id = other and b.id <> (booking ->> 'id')::uuid
      and booking_is_active(b.status, b.is_series_parent)
      and booking_occupied_range(b.start_time, b.end_time, b.buffer_before_minutes, b.buffer_after_minutes) && occupied
    limit 1;
    if hit is not null then
      raise exception 'booking % shares resource % with booking % at that time', booking ->> 'id', other, hit
        using errcode = 'check_violation', constraint = 'bookings_share_no_resource';
    end if;
  end loop;
  return new;
end $$;

drop trigger if exists events_placement_30_shares_no_resource on events;
create trigger events_placement_30_shares_no_resource before insert on events
for each row when (new.event_type in ('BookingCreated', 'BookingRescheduled'))
execute function hold_shared_occupation();
