import { sql, type Kysely } from 'kysely';

/**
 * Read paths of bookings whose cost must follow the rows they answer, not the resource's history.
 * Overlap checks of active bookings use the exclusion constraint's own GiST index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Schedules in any status (e.g. cancelled ones of a busy resource) by overlapping range.
  await sql`create index bookings_by_resource_range on bookings using gist (bookable_resource_id, tstzrange(start_time, end_time, '[)'))`.execute(db);
  // Lists filtered by the zone/device id, and the own bookings of LV4/LV5, in start order.
  await sql`create index bookings_by_workspace_zone_time on bookings (workspace, resource_id, start_time, id)`.execute(db);
  await sql`create index bookings_by_workspace_booker_time on bookings (workspace, booker_profile_id, start_time, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index bookings_by_workspace_booker_time`.execute(db);
  await sql`drop index bookings_by_workspace_zone_time`.execute(db);
  await sql`drop index bookings_by_resource_range`.execute(db);
}
