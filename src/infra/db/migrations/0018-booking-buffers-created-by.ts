import { sql, type Kysely } from 'kysely';

/**
 * Contract §17. Buffers: a booking occupies [start_time − before, end_time + after), with the
 * buffers it was decided with, and the exclusion constraint guards that occupied range. Booking on
 * behalf: every booking records who created it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Bookings decided before buffers existed had none.
  for (const table of ['bookings', 'bookings_archive']) {
    await sql`
      alter table ${sql.table(table)}
        add column buffer_before_minutes integer not null default 0 check (buffer_before_minutes between 0 and 1440),
        add column buffer_after_minutes integer not null default 0 check (buffer_after_minutes between 0 and 1440),
        add column created_by text`.execute(db);
    // Before booking on behalf, every booking was created by its booker.
    await sql`update ${sql.table(table)} set created_by = booker_profile_id`.execute(db);
    await sql`alter table ${sql.table(table)} alter column created_by set not null`.execute(db);
  }
  // timestamptz ± interval is only STABLE because days and months follow the session's zone; an
  // interval of whole minutes does not, so this range is immutable and may be indexed.
  await sql`
    create function booking_occupied_range(start_time timestamptz, end_time timestamptz, before_minutes integer, after_minutes integer)
    returns tstzrange language sql immutable parallel safe
    as $$ select tstzrange(start_time - before_minutes * interval '1 minute', end_time + after_minutes * interval '1 minute', '[)') $$`.execute(db);
  // The second line of defence now guards occupied ranges; its GiST index answers every overlap
  // query of active bookings, which therefore use the same expression.
  await sql`alter table bookings drop constraint bookings_no_overlap`.execute(db);
  await sql`
    alter table bookings add constraint bookings_no_overlap exclude using gist (
      bookable_resource_id with =,
      booking_occupied_range(start_time, end_time, buffer_before_minutes, buffer_after_minutes) with &&
    ) where (status in ('pending', 'confirmed') and not is_series_parent)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bookings drop constraint bookings_no_overlap`.execute(db);
  await sql`
    alter table bookings add constraint bookings_no_overlap exclude using gist (
      bookable_resource_id with =,
      tstzrange(start_time, end_time, '[)') with &&
    ) where (status in ('pending', 'confirmed') and not is_series_parent)`.execute(db);
  await sql`drop function booking_occupied_range`.execute(db);
  for (const table of ['bookings', 'bookings_archive']) {
    await sql`alter table ${sql.table(table)} drop column buffer_before_minutes, drop column buffer_after_minutes, drop column created_by`.execute(db);
  }
}
