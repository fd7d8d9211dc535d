import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Retention (contract §13) moves ended bookings here, out of the hot table that every schedule,
  // slot search, count and overlap check reads: those stay as fast with a long past as without.
  // The same columns as bookings plus archived_at; no exclusion constraint, nothing here holds a slot.
  await sql`
    create table bookings_archive (
      like bookings including defaults,
      archived_at timestamptz not null,
      primary key (id)
    )`.execute(db);
  // The archive lists (archived=true) filter by workspace, by resource or by booker, ordered by start.
  await sql`create index bookings_archive_by_workspace on bookings_archive (workspace, start_time, id)`.execute(db);
  await sql`create index bookings_archive_by_resource on bookings_archive (resource_id, start_time)`.execute(db);
  await sql`create index bookings_archive_by_booker on bookings_archive (booker_profile_id, start_time)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table bookings_archive`.execute(db);
}
