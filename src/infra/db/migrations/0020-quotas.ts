import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The live quotas (contract §17), projected from their streams; a deleted quota's row is gone.
  await sql`
    create table quotas (
      id uuid primary key,
      workspace uuid not null,
      quota jsonb not null,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index quotas_by_workspace on quotas (workspace, created_at, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table quotas`.execute(db);
}
