-- Contract §21, pools: the most units the resource's other active bookings use at one instant of
-- the range. Its TypeScript twin is src/domain/booking/unit-use.ts's peakUnits over unitsHeldBy,
-- held to it by tests/infra/db/functions/pool-peak-units.property.test.ts.
--
-- The read model is written beside the events of an append, after them: the bookings an earlier
-- event of the same append changed (a cancel and the promotion it allows, a series' occurrences
-- moving into each other's times) count as that event left them (`pending`, latest first).
--
-- PL/pgSQL, so that its statement's plan is kept per connection: a SQL function that is not
-- inlined is parsed and planned again in every statement that calls it, which the pool guard's
-- trigger paid on every create (about a millisecond). The occupied range of each row read is
-- written out (booking_occupied_range's body): the function, never inlined (its body uses a stable
-- operator), cost a call per booking; the condition keeps it, for the GiST index built on it.
create or replace function pool_peak_units(resource uuid, occupied tstzrange, except_id uuid, pending jsonb default '[]') returns integer
language plpgsql stable as $$
begin
  -- At one instant ends come before starts (ranges are half-open), so the running sum peaks exactly.
  return (with latest as (
    select distinct on (p.booking ->> 'id') p.booking
    from jsonb_array_elements(pending) with ordinality as p (booking, n)
    order by p.booking ->> 'id', p.n),
  held as (
    select tstzrange(b.start_time - b.buffer_before_minutes * interval '1 minute', b.end_time + b.buffer_after_minutes * interval '1 minute', '[)') as r, b.units
    from bookings b
    where b.bookable_resource_id = resource and b.id is distinct from except_id
      and booking_is_active(b.status, b.is_series_parent)
      and booking_occupied_range(b.start_time, b.end_time, b.buffer_before_minutes, b.buffer_after_minutes) && occupied
      and not exists (select 1 from latest where (latest.booking ->> 'id')::uuid = b.id)
    union all
    select event_booking_occupied_range(l.booking), event_booking_units(l.booking)
    from latest l
    where (l.booking ->> 'id')::uuid is distinct from except_id
      and event_booking_is_active(l.booking)
      and event_booking_occupied_range(l.booking) && occupied)
  select coalesce(max(used), 0)::integer from (
    select sum(delta) over (order by at, delta rows unbounded preceding) as used from (
      select greatest(lower(r), lower(occupied)) as at, units as delta from held
      union all
      select least(upper(r), upper(occupied)), -units from held) as points) as running);
end $$;
