import { sql, type Kysely } from 'kysely';

/**
 * The free search (contract §16). It asks which of a workspace's resources hold time in a window:
 * a GiST index over the occupied ranges (buffers included, contract §17) of each workspace answers
 * it from the bookings in the window, whatever the history (its predicate and expression are the
 * exclusion constraint's). And it filters by the zone
 * tree: the service's own zones answer that live; the zones of a remote device service are
 * remembered here with their ancestors, written on registration and by each reconciliation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index bookings_held_by_workspace_range on bookings
    using gist (workspace, booking_occupied_range(start_time, end_time, buffer_before_minutes, buffer_after_minutes))
    where status in ('pending', 'confirmed') and not is_series_parent`.execute(db);
  await sql`
    create table zone_ancestry (
      workspace uuid not null,
      zone_id text not null,
      ancestors text[] not null,
      refreshed_at timestamptz not null,
      primary key (workspace, zone_id)
    )`.execute(db);
  await sql`create index zone_ancestry_by_ancestor on zone_ancestry using gin (ancestors)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table zone_ancestry`.execute(db);
  await sql`drop index bookings_held_by_workspace_range`.execute(db);
}
