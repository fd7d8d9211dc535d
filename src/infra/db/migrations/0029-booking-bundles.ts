import { sql, type Kysely } from 'kysely';

/**
 * Contract §22, bundles: the bookings of one bundle carry its id (null on every other booking), and
 * a bundle's bookings are found by it. A bundle has no table of its own: it is its bookings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['bookings', 'bookings_archive']) {
    await sql`alter table ${sql.table(table)} add column bundle_id uuid`.execute(db);
  }
  await sql`create index bookings_by_bundle on bookings (bundle_id) where bundle_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index bookings_by_bundle`.execute(db);
  for (const table of ['bookings', 'bookings_archive']) {
    await sql`alter table ${sql.table(table)} drop column bundle_id`.execute(db);
  }
}
