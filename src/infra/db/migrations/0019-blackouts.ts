import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The read model of the blackouts (projected inline from the workspace streams `blackouts-<ws>`).
  await sql`
    create table blackouts (
      id uuid primary key,
      workspace uuid not null,
      resource_ids uuid[],
      from_time timestamptz not null,
      to_time timestamptz not null,
      reason text not null,
      created_by text not null,
      created_at timestamptz not null
    )`.execute(db);
  // A booking decision reads the blackouts of its workspace overlapping its time: one index probe.
  await sql`create index blackouts_by_workspace_period on blackouts using gist (workspace, tstzrange(from_time, to_time, '[)'))`.execute(db);

  // The lock a blackout create takes exclusive and every booking append shared: one key per workspace
  // (lock-keys.ts's blackoutLockKeyPrefix).
  await sql`
    create function blackout_lock_key(workspace uuid) returns bigint
    language sql immutable strict as $$ select hashtextextended('workspace-booking:blackouts:' || workspace::text, 0) $$`.execute(db);

  // The guard in the append (ARCHITECTURE, questions across resources): an event that gives an
  // active booking its times waits for any blackout create of its workspace to commit (shared
  // lock), then looks at the committed blackouts with a fresh snapshot (a volatile function's
  // statement takes one after the lock). One in the way means the decision did not see it: the
  // append fails and the command decides again, which refuses with policy blackout. A blackout
  // create takes the lock exclusive before it reads the bookings, so it sees every booking whose
  // append passed this guard; the two can never both stand.
  await sql`
    create function refuse_booking_in_blackout() returns trigger language plpgsql as $$
    declare
      booking jsonb := new.data -> 'booking';
      booking_workspace uuid;
      hit uuid;
    begin
      if booking is null or (booking ->> 'isSeriesParent')::boolean or booking ->> 'status' not in ('pending', 'confirmed') then
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
    end $$`.execute(db);
  await sql`
    create trigger events_booking_outside_blackouts before insert on events
    for each row when (new.event_type in ('BookingCreated', 'BookingRescheduled'))
    execute function refuse_booking_in_blackout()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger events_booking_outside_blackouts on events`.execute(db);
  await sql`drop function refuse_booking_in_blackout()`.execute(db);
  await sql`drop function blackout_lock_key(uuid)`.execute(db);
  await sql`drop table blackouts`.execute(db);
}
