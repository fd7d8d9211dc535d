import { sql, type Kysely } from 'kysely';

/**
 * Contract §21, pools: a resource holds `units` bookings of one unit at a time, and a booking takes
 * `units` of them.
 *
 * The exclusion constraint cannot count, so it keeps guarding the bookings placed while their
 * resource had one unit (`pooled` false: exactly today's rule), and skips those placed on a pool
 * (`pooled` true, carried in the booking of every event). Those are guarded by a count in the
 * append (src/infra/db/functions/placement-40-within-pool-units.sql), which reads `counted`: a
 * resource that has ever been a pool.
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

  // The count in the append: src/infra/db/functions/placement-40-within-pool-units.sql.
}

export async function down(db: Kysely<unknown>): Promise<void> {
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
