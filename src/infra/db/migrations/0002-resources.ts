import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table resources (
      id uuid primary key,
      workspace uuid not null,
      resource_type text not null check (resource_type in ('zone', 'device')),
      resource_id text not null,
      resource_name text,
      capacity integer,
      group_id text,
      is_active boolean not null,
      booking_policy jsonb not null,
      availability jsonb,
      deleted_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      stream_revision bigint not null
    )`.execute(db);
  // One live registration per (workspace, type, resourceId); the guard against two racing registrations.
  await sql`
    create unique index resources_registration on resources (workspace, resource_type, resource_id)
    where deleted_at is null`.execute(db);
  await sql`create index resources_by_workspace on resources (workspace, created_at, id) where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table resources`.execute(db);
}
