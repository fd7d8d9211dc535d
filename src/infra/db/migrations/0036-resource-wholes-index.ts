import { sql, type Kysely } from 'kysely';

/**
 * The live wholes of a workspace (contract §22), read by every free search (issue #32): without
 * this index they were found by reading every resource of the workspace (2,000 rows a search in
 * the bench). Its predicate is the searches' own, so a plan takes it without statistics.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index resources_wholes_by_workspace on resources (workspace) where parts is not null and deleted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index resources_wholes_by_workspace`.execute(db);
}
