import { sql, type Kysely } from 'kysely';

/**
 * The free search (contract §16) asks which of a workspace's resources hold time in a window:
 * a GiST index over the held ranges of each workspace answers it from the bookings in the
 * window, whatever the history. Its predicate is the exclusion constraint's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index bookings_held_by_workspace_range on bookings using gist (workspace, tstzrange(start_time, end_time, '[)'))
    where status in ('pending', 'confirmed') and not is_series_parent`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index bookings_held_by_workspace_range`.execute(db);
}
