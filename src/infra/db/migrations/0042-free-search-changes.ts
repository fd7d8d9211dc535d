import { sql, type Kysely } from 'kysely';

/**
 * What the free search follows of a workspace (issue 39, src/projections/resource/followed-workspaces.ts):
 * the transaction that last wrote each resource row (`resources.changed_in`, as bookings keep theirs
 * since migration 0038; the trigger is in src/infra/db/functions/resources-changed-in.sql), and an
 * index per workspace on both tables' `changed_in`, so that the rows a workspace changed since a
 * transaction are read without a scan of its history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table resources add column changed_in xid8 not null default pg_current_xact_id()`.execute(db);
  await sql`create index resources_changes_by_workspace on resources (workspace, changed_in)`.execute(db);
  await sql`create index bookings_changes_by_workspace on bookings (workspace, changed_in)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ present: boolean }>`select to_regclass('database_functions') is not null as present`.execute(db);
  if (rows[0]?.present) await sql`delete from database_functions where name = 'resources-changed-in.sql'`.execute(db);
  await sql`drop trigger if exists resources_changed_in on resources`.execute(db);
  await sql`drop function if exists resources_changed_in()`.execute(db);
  await sql`drop index if exists bookings_changes_by_workspace`.execute(db);
  await sql`alter table resources drop column changed_in`.execute(db);
}
