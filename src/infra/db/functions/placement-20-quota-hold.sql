-- Placement guard 20 of `events` (order: placement-10-outside-blackouts.sql).
--
-- The quota's hold: a BookingCreated carries in its metadata (`quotaSeen`) the fingerprint of the
-- booker's countable bookings its decision read (quota-bookings.sql). Before the event is
-- inserted, the trigger takes the booker's quota lock and computes the fingerprint again with a
-- fresh snapshot. A difference means the decision did not see a booking of the booker committed
-- since: the append fails and the command decides again. The key leaves the stored metadata. The
-- lock is the one a reschedule's or a series' hold takes in its transaction
-- (src/commands/booking/quota-hold.ts), so every quota-bound append of a booker takes turns with
-- every other.
create or replace function hold_booker_quota() returns trigger language plpgsql as $$
declare
  booking jsonb := new.data -> 'booking';
  seen text := new.metadata ->> 'quotaSeen';
begin
  new.metadata := new.metadata - 'quotaSeen';
  perform pg_advisory_xact_lock(quota_lock_key(booking ->> 'workspace', booking ->> 'bookerProfileId'));
  if booker_quota_fingerprint((booking ->> 'workspace')::uuid, booking ->> 'bookerProfileId', (booking ->> 'startTime')::timestamptz) is distinct from seen then
    raise exception 'the quota usage of booker % changed while booking %', booking ->> 'bookerProfileId', booking ->> 'id'
      using errcode = 'check_violation', constraint = 'bookings_quota_usage_seen';
  end if;
  return new;
end $$;

drop trigger if exists events_placement_20_quota_hold on events;
create trigger events_placement_20_quota_hold before insert on events
for each row when (new.event_type = 'BookingCreated' and new.metadata ? 'quotaSeen')
execute function hold_booker_quota();
