import { sql, type Kysely } from 'kysely';

/**
 * Contract §21: a pool's utilization counts unit-minutes (docs/booking.md, "Pools"): each booking's row
 * carries the units it takes (1 for every booking before pools).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table utilization_bookings add column units integer not null default 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table utilization_bookings drop column units`.execute(db);
}
