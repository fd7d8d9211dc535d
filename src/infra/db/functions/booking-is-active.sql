-- The active booking: one that holds its slot (a pending or confirmed occurrence, not the parent
-- that only describes a series). The one SQL definition every query, guard and trigger calls; its
-- TypeScript twin is src/domain/booking/booking.ts's activeStatuses (and isSeriesParent), held to
-- it by tests/infra/db/functions/event-booking.property.test.ts.
--
-- A plain SQL expression, immutable and not strict, so that the planner inlines it into the
-- calling statement: `booking_is_active(b.status, b.is_series_parent)` becomes the predicate of the
-- partial indexes (bookings_active_by_resource_range, bookings_held_by_workspace_range), which
-- their plans then use (tests/api/booking/hot-statement-plans.test.ts).
create or replace function booking_is_active(status text, is_series_parent boolean) returns boolean
language sql immutable parallel safe
as $$ select status in ('pending', 'confirmed') and not is_series_parent $$;
