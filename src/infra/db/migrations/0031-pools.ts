import { sql, type Kysely } from 'kysely';

/**
 * Contract §21, pools: a resource holds `units` bookings of one unit at a time, and a booking takes
 * `units` of them.
 *
 * The exclusion constraint cannot count, so it keeps guarding the bookings placed while their
 * resource had one unit (`pooled` false: exactly today's rule), and skips those placed on a pool
 * (`pooled` true, carried in the booking of every event). Those are guarded by a count in the
 * append, as the blackout guard of migration 0019 is: before an event that places an active booking
 * (a create or a reschedule) on a pool, or on a resource that has ever been one (`resources.counted`,
 * so that a pool shrunk to one unit is still counted against the pooled bookings it holds), is
 * inserted, the trigger takes the resource's pool lock (lock-keys.ts's poolLockKeyPrefix), then
 * with a fresh snapshot sums the units of the resource's other active bookings at every instant of
 * the new occupied range. Above the resource's `units` means the decision did not see a booking
 * committed since (a writer outside the stream's revision check): the append fails and the command
 * decides again, which answers 409. Two appends on one pool take turns at the lock, and the second
 * counts the first's booking once it has committed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table resources
      add column units integer not null default 1 check (units between 1 and 10000),
      add column counted boolean not null default false`.execute(db);
  for (const table of ['bookings', 'bookings_archive']) {
    await sql`
      alter table ${sql.table(table)}
        add column units integer not null default 1 check (units between 1 and 10000),
        add column pooled boolean not null default false`.execute(db);
  }
  await sql`alter table bookings drop constraint bookings_no_overlap`.execute(db);
  await sql`
    alter table bookings add constraint bookings_no_overlap exclude using gist (
      bookable_resource_id with =,
      booking_occupied_range(start_time, end_time, buffer_before_minutes, buffer_after_minutes) with &&
    ) where (status in ('pending', 'confirmed') and not is_series_parent and not pooled)`.execute(db);
  // The overlap queries of active bookings keep the index the constraint built before (all active rows).
  await sql`
    create index bookings_active_by_resource_range on bookings using gist (
      bookable_resource_id, booking_occupied_range(start_time, end_time, buffer_before_minutes, buffer_after_minutes)
    ) where (status in ('pending', 'confirmed') and not is_series_parent)`.execute(db);

  // The read model is written beside the events of an append, after them: the bookings an earlier
  // event of the same append changed (a cancel and the promotion it allows, a series' occurrences
  // moving into each other's times) count as that event left them (`pending`, latest first).
  await sql`
    create function pool_peak_units(resource uuid, occupied tstzrange, except_id uuid, pending jsonb default '[]') returns integer
    language sql stable as $$
      -- The most units the resource's other active bookings use at one instant of the range: at one
      -- instant ends come before starts (ranges are half-open), so the running sum peaks exactly.
      with latest as (
        select distinct on (p.booking ->> 'id') p.booking
        from jsonb_array_elements(pending) with ordinality as p (booking, n)
        order by p.booking ->> 'id', p.n),
      held as (
        select booking_occupied_range(b.start_time, b.end_time, b.buffer_before_minutes, b.buffer_after_minutes) as r, b.units
        from bookings b
        where b.bookable_resource_id = resource and b.id is distinct from except_id
          and b.status in ('pending', 'confirmed') and not b.is_series_parent
          and booking_occupied_range(b.start_time, b.end_time, b.buffer_before_minutes, b.buffer_after_minutes) && occupied
          and not exists (select 1 from latest where (latest.booking ->> 'id')::uuid = b.id)
        union all
        select booking_occupied_range((l.booking ->> 'startTime')::timestamptz, (l.booking ->> 'endTime')::timestamptz,
            coalesce((l.booking ->> 'bufferBeforeMinutes')::integer, 0), coalesce((l.booking ->> 'bufferAfterMinutes')::integer, 0)),
          coalesce((l.booking ->> 'units')::integer, 1)
        from latest l
        where (l.booking ->> 'id')::uuid is distinct from except_id
          and l.booking ->> 'status' in ('pending', 'confirmed') and not coalesce((l.booking ->> 'isSeriesParent')::boolean, false)
          and booking_occupied_range((l.booking ->> 'startTime')::timestamptz, (l.booking ->> 'endTime')::timestamptz,
            coalesce((l.booking ->> 'bufferBeforeMinutes')::integer, 0), coalesce((l.booking ->> 'bufferAfterMinutes')::integer, 0)) && occupied)
      select coalesce(max(used), 0)::integer from (
        select sum(delta) over (order by at, delta rows unbounded preceding) as used from (
          select greatest(lower(r), lower(occupied)) as at, units as delta from held
          union all
          select least(upper(r), upper(occupied)), -units from held) as points) as running
    $$`.execute(db);
  // What the guards in the append judge (this one, and migration 0033's): an event that gives an
  // active booking (no series parent) its place, a create or a reschedule of its times or units.
  await sql`
    create function places_active_booking(event_type text, data jsonb) returns boolean
    language sql immutable as $$
      select data -> 'booking' is not null and not coalesce((data -> 'booking' ->> 'isSeriesParent')::boolean, false)
        and data -> 'booking' ->> 'status' in ('pending', 'confirmed')
        and not (event_type = 'BookingRescheduled' and data ->> 'previousStartTime' = data -> 'booking' ->> 'startTime'
          and data ->> 'previousEndTime' = data -> 'booking' ->> 'endTime'
          and coalesce((data ->> 'previousUnits')::integer, 1) = coalesce((data -> 'booking' ->> 'units')::integer, 1))
    $$`.execute(db);
  await sql`
    create function hold_pool_units() returns trigger language plpgsql as $$
    declare
      booking jsonb := new.data -> 'booking';
      resource uuid := (booking ->> 'bookableResourceId')::uuid;
      asked integer := coalesce((booking ->> 'units')::integer, 1);
      occupied tstzrange;
      pool integer;
      pending jsonb := '[]';
      earlier record;
    begin
      if not places_active_booking(new.event_type, new.data) then
        return new;
      end if;
      if not coalesce((booking ->> 'pooled')::boolean, false) and not exists (select 1 from resources where id = resource and counted) then
        return new;
      end if;
      -- The key of lock-keys.ts's poolLockKeyPrefix.
      perform pg_advisory_xact_lock(hashtextextended('workspace-booking:pool:' || resource::text, 0));
      -- The events of this append before this one (this transaction's, the stream's newest).
      for earlier in select e.data, e.xmin from events e where e.stream_id = new.stream_id and e.stream_revision < new.stream_revision order by e.stream_revision desc loop
        exit when earlier.xmin <> pg_current_xact_id()::xid;
        if earlier.data ? 'booking' then
          pending := pending || jsonb_build_array(earlier.data -> 'booking');
        end if;
      end loop;
      occupied := booking_occupied_range((booking ->> 'startTime')::timestamptz, (booking ->> 'endTime')::timestamptz,
        coalesce((booking ->> 'bufferBeforeMinutes')::integer, 0), coalesce((booking ->> 'bufferAfterMinutes')::integer, 0));
      select units into pool from resources where id = resource;
      if pool_peak_units(resource, occupied, (booking ->> 'id')::uuid, pending) + asked > pool then
        raise exception 'booking % would put more than % units of resource % in use', booking ->> 'id', pool, resource
          using errcode = 'check_violation', constraint = 'bookings_within_pool_units';
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger events_booking_within_pool_units before insert on events
    for each row when (new.event_type in ('BookingCreated', 'BookingRescheduled'))
    execute function hold_pool_units()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger events_booking_within_pool_units on events`.execute(db);
  await sql`drop function hold_pool_units()`.execute(db);
  await sql`drop function places_active_booking(text, jsonb)`.execute(db);
  await sql`drop function pool_peak_units(uuid, tstzrange, uuid, jsonb)`.execute(db);
  await sql`drop index bookings_active_by_resource_range`.execute(db);
  await sql`alter table bookings drop constraint bookings_no_overlap`.execute(db);
  await sql`
    alter table bookings add constraint bookings_no_overlap exclude using gist (
      bookable_resource_id with =,
      booking_occupied_range(start_time, end_time, buffer_before_minutes, buffer_after_minutes) with &&
    ) where (status in ('pending', 'confirmed') and not is_series_parent)`.execute(db);
  for (const table of ['bookings', 'bookings_archive']) {
    await sql`alter table ${sql.table(table)} drop column units, drop column pooled`.execute(db);
  }
  await sql`alter table resources drop column units, drop column counted`.execute(db);
}
