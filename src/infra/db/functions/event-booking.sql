-- The booking an event carries (`data -> 'booking'`), read with the defaults of the events written
-- before a field existed: no buffers before contract §17 (0 minutes), one unit and not pooled
-- before §21, no series parent unless said. One home for those defaults in SQL; their TypeScript
-- twin is src/domain/booking/upcast-booking.ts's upcastBooking, held to it by
-- tests/infra/db/functions/event-booking.property.test.ts.

create or replace function event_booking_is_active(booking jsonb) returns boolean
language sql immutable parallel safe
as $$ select booking_is_active(booking ->> 'status', coalesce((booking ->> 'isSeriesParent')::boolean, false)) $$;

create or replace function event_booking_occupied_range(booking jsonb) returns tstzrange
language sql immutable parallel safe
as $$
  select booking_occupied_range((booking ->> 'startTime')::timestamptz, (booking ->> 'endTime')::timestamptz,
    coalesce((booking ->> 'bufferBeforeMinutes')::integer, 0), coalesce((booking ->> 'bufferAfterMinutes')::integer, 0))
$$;

create or replace function event_booking_units(booking jsonb) returns integer
language sql immutable parallel safe
as $$ select coalesce((booking ->> 'units')::integer, 1) $$;

create or replace function event_booking_pooled(booking jsonb) returns boolean
language sql immutable parallel safe
as $$ select coalesce((booking ->> 'pooled')::boolean, false) $$;
