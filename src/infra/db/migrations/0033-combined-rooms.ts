import { sql, type Kysely } from 'kysely';

/**
 * Contract §22, combined rooms: a resource may have `parts` (registration ids of resources of one
 * unit without parts of their own). A booking occupies its resource and, on a whole, its parts: two
 * active bookings conflict when their occupied ranges overlap and they share a resource.
 *
 * `sharing_resources(r)` are the resources other than r whose bookings share one with a booking of
 * r: r's parts, the wholes holding r, and the wholes holding one of r's parts. Empty for every
 * resource that is neither a whole nor a part.
 *
 * The guard in the append (the exclusion constraint guards one resource only): before an event that
 * places an active booking (a create or a reschedule) is inserted, the trigger takes the occupation
 * locks (lock-keys.ts's occupationLockKeyPrefix) of the resources the booking occupies (its own and,
 * on a whole, its parts), in id order, so that two bookings that may conflict share a lock while
 * bookings of two halves do not; then, with a fresh snapshot, it reads the resources sharing one
 * with it and looks for an active booking of one of them whose occupied range overlaps. One in the way means the decision did not see it (it was decided
 * on another resource's stream): the append fails and the command decides again, which answers 409.
 * A change of `parts` takes the same locks (src/commands/resource/update-resource.ts) before it
 * checks the bookings it would make conflict, so the two take turns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table resources add column parts uuid[]`.execute(db);
  await sql`create index resources_by_part on resources using gin (parts) where parts is not null`.execute(db);
  await sql`
    create function sharing_resources(resource uuid) returns uuid[]
    language sql stable as $$
      select coalesce(array_agg(distinct s.id order by s.id), '{}') from (
        select unnest(r.parts) as id from resources r where r.id = $1
        union
        select w.id from resources w, resources r
        where r.id = $1 and w.id <> $1 and w.deleted_at is null and w.parts is not null
          and w.parts && (array[$1] || coalesce(r.parts, '{}'))) as s
    $$`.execute(db);
  await sql`
    create function occupation_lock_key(resource uuid) returns bigint
    language sql immutable strict as $$ select hashtextextended('workspace-booking:occupation:' || resource::text, 0) $$`.execute(db);
  await sql`
    create function hold_shared_occupation() returns trigger language plpgsql as $$
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
      occupied := booking_occupied_range((booking ->> 'startTime')::timestamptz, (booking ->> 'endTime')::timestamptz,
        coalesce((booking ->> 'bufferBeforeMinutes')::integer, 0), coalesce((booking ->> 'bufferAfterMinutes')::integer, 0));
      foreach other in array sharing loop
        select b.id into hit from bookings b
        where b.bookable_resource_id = other and b.id <> (booking ->> 'id')::uuid
          and b.status in ('pending', 'confirmed') and not b.is_series_parent
          and booking_occupied_range(b.start_time, b.end_time, b.buffer_before_minutes, b.buffer_after_minutes) && occupied
        limit 1;
        if hit is not null then
          raise exception 'booking % shares resource % with booking % at that time', booking ->> 'id', other, hit
            using errcode = 'check_violation', constraint = 'bookings_share_no_resource';
        end if;
      end loop;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger events_booking_shares_no_resource before insert on events
    for each row when (new.event_type in ('BookingCreated', 'BookingRescheduled'))
    execute function hold_shared_occupation()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger events_booking_shares_no_resource on events`.execute(db);
  await sql`drop function hold_shared_occupation()`.execute(db);
  await sql`drop function occupation_lock_key(uuid)`.execute(db);
  await sql`drop function sharing_resources(uuid)`.execute(db);
  await sql`drop index resources_by_part`.execute(db);
  await sql`alter table resources drop column parts`.execute(db);
}
