import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The read model of the blackouts (projected inline from the workspace streams `blackouts-<ws>`).
  await sql`
    create table blackouts (
      id uuid primary key,
      workspace uuid not null,
      resource_ids uuid[],
      from_time timestamptz not null,
      to_time timestamptz not null,
      reason text not null,
      created_by text not null,
      created_at timestamptz not null
    )`.execute(db);
  // A booking decision reads the blackouts of its workspace overlapping its time: one index probe.
  await sql`create index blackouts_by_workspace_period on blackouts using gist (workspace, tstzrange(from_time, to_time, '[)'))`.execute(db);

  // The guard in the append: src/infra/db/functions/placement-10-outside-blackouts.sql.
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table blackouts`.execute(db);
}
