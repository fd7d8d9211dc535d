import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The waitlist entries (contract §23), projected from the resources' streams: one row an entry, kept when closed.
  await sql`
    create table waitlist_entries (
      id uuid primary key,
      workspace uuid not null,
      bookable_resource_id uuid not null,
      -- The join's revision in the resource's stream: the order the entries were made in, one per resource.
      queued_at bigint not null,
      booker_profile_id text not null,
      created_by text not null,
      status text not null check (status in ('waiting', 'fulfilled', 'refused', 'expired', 'cancelled')),
      start_time timestamptz not null,
      end_time timestamptz not null,
      entry jsonb not null,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index waitlist_entries_waiting on waitlist_entries (bookable_resource_id, queued_at) where status = 'waiting'`.execute(db);
  await sql`create index waitlist_entries_by_resource on waitlist_entries (bookable_resource_id, queued_at)`.execute(db);
  await sql`create index waitlist_entries_by_booker on waitlist_entries (workspace, booker_profile_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table waitlist_entries`.execute(db);
}
