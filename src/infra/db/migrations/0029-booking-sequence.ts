import { sql, type Kysely } from 'kysely';

/**
 * A booking's SEQUENCE (contract §18, RFC 5545 §3.8.7.4): how many times it changed since it was
 * created, carried by its events. Rows already there keep the number their feeds showed until now
 * (whole seconds from creation to the last change: booking-sequence.ts), so no client sees it go down.
 */
const counted = sql`greatest(0, floor(extract(epoch from updated_at - created_at)))::integer`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['bookings', 'bookings_archive']) {
    await sql`alter table ${sql.table(table)} add column sequence integer not null default 0`.execute(db);
    await sql`update ${sql.table(table)} set sequence = ${counted}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['bookings', 'bookings_archive']) await sql`alter table ${sql.table(table)} drop column sequence`.execute(db);
}
