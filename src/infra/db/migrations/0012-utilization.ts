import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The utilization read model: one row per booking (series parents aside) with what the figures
  // need. No reference to resources: a rebuild empties and refills it on its own.
  await sql`
    create table utilization_bookings (
      booking_id uuid primary key,
      bookable_resource_id uuid not null,
      start_time timestamptz not null,
      end_time timestamptz not null,
      status text not null check (status in ('pending', 'confirmed', 'completed', 'cancelled', 'no_show')),
      checked_in boolean not null,
      check (end_time > start_time)
    )`.execute(db);
  // A request reads only the bookings of its resources overlapping its range (btree_gist is in since 0003).
  await sql`create index utilization_by_resource_range on utilization_bookings using gist (bookable_resource_id, tstzrange(start_time, end_time, '[)'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table utilization_bookings`.execute(db);
}
