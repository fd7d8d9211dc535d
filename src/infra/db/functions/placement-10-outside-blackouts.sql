-- Placement guard 10 of `events` (the guards run in the order of their triggers' names,
-- events_placement_NN_*: blackouts, quota, shared occupation, pool units; each takes its locks in
-- that order, so two appends never wait for each other's locks crosswise).
--
-- The blackout guard in the append (ARCHITECTURE, questions across resources): an event that gives
-- an active booking its times waits for any blackout create of its workspace to commit (shared
-- lock), then looks at the committed blackouts with a fresh snapshot (a volatile function's
-- statement takes one after the lock). One in the way means the decision did not see it: the
-- append fails and the command decides again, which refuses with policy blackout. A blackout
-- create takes the lock exclusive before it reads the bookings, so it sees every booking whose
-- append passed this guard; the two can never both stand. The TypeScript twin is
-- src/domain/booking/blackout-refusal.ts.
create or replace function refuse_booking_in_blackout() returns trigger language plpgsql as $$
declare
  booking jsonb := new.data -> 'booking';
  booking_workspace uuid;
  hit uuid;
begin
  if booking is null or not event_booking_is_active(booking) then
    return new;
  end if;
  if new.event_type = 'BookingRescheduled' and new.data ->> 'previousStartTime' = booking ->> 'startTime'
    and new.data ->> 'previousEndTime' = booking ->> 'endTime' then
    return new;
  end if;
  booking_workspace := (booking ->> 'workspace')::uuid;
  perform pg_advisory_xact_lock_shared(blackout_lock_key(booking_workspace));
  select id into hit from blackouts
  where blackouts.workspace = booking_workspace
    and tstzrange(from_time, to_time, '[)') && tstzrange((booking ->> 'startTime')::timestamptz, (booking ->> 'endTime')::timestamptz, '[)')
    and (resource_ids is null or (booking ->> 'bookableResourceId')::uuid = any(resource_ids))
  limit 1;
  if hit is not null then
    raise exception 'booking % lies in blackout %', booking ->> 'id', hit
      using errcode = 'check_violation', constraint = 'bookings_outside_blackouts';
  end if;
  return new;
end $$;

drop trigger if exists events_placement_10_outside_blackouts on events;
create trigger events_placement_10_outside_blackouts before insert on events
for each row when (new.event_type in ('BookingCreated', 'BookingRescheduled'))
execute function refuse_booking_in_blackout();
