import { sql, type Kysely } from 'kysely';

/**
 * Contract §22, combined rooms: a resource may have `parts` (registration ids of resources of one
 * unit without parts of their own). A booking occupies its resource and, on a whole, its parts: two
 * active bookings conflict when their occupied ranges overlap and they share a resource. The guard
 * in the append lives in src/infra/db/functions (placement-30-shares-no-resource.sql).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table resources add column parts uuid[]`.execute(db);
  await sql`create index resources_by_part on resources using gin (parts) where parts is not null`.execute(db);
  // sharing_resources and the guard in the append: src/infra/db/functions (sharing-resources.sql,
  // placement-30-shares-no-resource.sql).
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index resources_by_part`.execute(db);
  await sql`alter table resources drop column parts`.execute(db);
}
