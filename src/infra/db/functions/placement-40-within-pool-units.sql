-- Placement guard 40 of `events` (order: placement-10-outside-blackouts.sql).
--
-- Contract §21, pools: the exclusion constraint cannot count, so it guards the bookings placed
-- while their resource had one unit (`pooled` false) and skips those placed on a pool. Those are
-- guarded here: before an event that places an active booking (a create or a reschedule) on a
-- pool, or on a resource that has ever been one (`resources.counted`, so that a pool shrunk to
-- one unit is still counted against the pooled bookings it holds), is inserted, the trigger takes
-- the resource's pool lock, then with a fresh snapshot sums the units of the resource's other
-- active bookings at every instant of the new occupied range (pool-peak-units.sql). Above the
-- resource's `units` means the decision did not see a booking committed since (a writer outside
-- the stream's revision check): the append fails and the command decides again, which answers
-- 409. Two appends on one pool take turns at the lock, and the second counts the first's booking
-- once it has committed.
create or replace function hold_pool_units() returns trigger language plpgsql as $$
declare
  booking jsonb := new.data -> 'booking';
  resource uuid := (booking ->> 'bookableResourceId')::uuid;
  pool integer;
  pending jsonb := '[]';
  earlier record;
begin
  if not places_active_booking(new.event_type, new.data) then
    return new;
  end if;
  if not event_booking_pooled(booking) and not exists (select 1 from resources where id = resource and counted) then
    return new;
  end if;
  perform pg_advisory_xact_lock(pool_lock_key(resource));
  -- The events of this append before this one (this transaction's, the stream's newest).
  for earlier in select e.data, e.xmin from events e where e.stream_id = new.stream_id and e.stream_revision < new.stream_revision order by e.stream_revision desc loop
    exit when earlier.xmin <> pg_current_xact_id()::xid;
    if earlier.data ? 'booking' then
      pending := pending || jsonb_build_array(earlier.data -> 'booking');
    end if;
  end loop;
  select units into pool from resources where id = resource;
  if pool_peak_units(resource, event_booking_occupied_range(booking), (booking ->> 'id')::uuid, pending) + event_booking_units(booking) > pool then
    raise exception 'booking % would put more than % units of resource % in use', booking ->> 'id', pool, resource
      using errcode = 'check_violation', constraint = 'bookings_within_pool_units';
  end if;
  return new;
end $$;

drop trigger if exists events_placement_40_within_pool_units on events;
create trigger events_placement_40_within_pool_units before insert on events
for each row when (new.event_type in ('BookingCreated', 'BookingRescheduled'))
execute function hold_pool_units();
