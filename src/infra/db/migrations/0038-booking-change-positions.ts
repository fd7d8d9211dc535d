import { sql, type Kysely } from 'kysely';

/**
 * The transaction that last wrote each booking row (contract §25's sync tokens): set on insert by
 * the default and on update by the trigger of src/infra/db/functions/bookings-changed-in.sql,
 * whoever writes the row (the append's inline projection, the log's followers with
 * PROJECTIONS=async, a rebuild). A calendar's sync token is a
 * transaction id below the late-commit horizon, so the changes since one are the rows whose
 * `changed_in` is at least it; the indexes answer that per resource and per booker.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bookings add column changed_in xid8 not null default pg_current_xact_id()`.execute(db);
  await sql`create index bookings_changes_by_resource on bookings (bookable_resource_id, changed_in)`.execute(db);
  await sql`create index bookings_changes_by_booker on bookings (booker_profile_id, changed_in)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The trigger's script (functions/bookings-changed-in.sql) is applied again after a later up.
  // Migrating down past 0040 has dropped the checksums' table, and with it every record.
  const { rows } = await sql<{ present: boolean }>`select to_regclass('database_functions') is not null as present`.execute(db);
  if (rows[0]?.present) await sql`delete from database_functions where name = 'bookings-changed-in.sql'`.execute(db);
  await sql`drop trigger if exists bookings_changed_in on bookings`.execute(db);
  await sql`drop function if exists bookings_changed_in()`.execute(db);
  await sql`alter table bookings drop column changed_in`.execute(db);
}
