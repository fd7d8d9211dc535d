import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists btree_gist`.execute(db);
  await sql`
    create table bookings (
      id uuid primary key,
      bookable_resource_id uuid not null references resources (id),
      workspace uuid not null,
      resource_type text not null,
      resource_id text not null,
      booker_profile_id text not null,
      booker_email text,
      title text not null,
      start_time timestamptz not null,
      end_time timestamptz not null,
      status text not null check (status in ('pending', 'confirmed', 'completed', 'cancelled', 'no_show')),
      is_series_parent boolean not null default false,
      recurrence_rule text,
      recurrence_time_zone text,
      recurrence_parent_id uuid,
      exception_of uuid,
      confirmed_by text,
      confirmed_at timestamptz,
      cancelled_by text,
      cancelled_at timestamptz,
      reason text,
      checked_in_at timestamptz,
      checked_out_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      check (end_time > start_time)
    )`.execute(db);
  // Second line of defence behind the stream revision check: two active bookings of one resource
  // can never overlap, whatever code path wrote them. Series parents only describe the pattern.
  await sql`
    alter table bookings add constraint bookings_no_overlap exclude using gist (
      bookable_resource_id with =,
      tstzrange(start_time, end_time, '[)') with &&
    ) where (status in ('pending', 'confirmed') and not is_series_parent)`.execute(db);
  await sql`create index bookings_by_resource_time on bookings (bookable_resource_id, start_time)`.execute(db);
  await sql`create index bookings_by_workspace_time on bookings (workspace, start_time, id)`.execute(db);
  await sql`create index bookings_by_booker on bookings (booker_profile_id, bookable_resource_id) where status in ('pending', 'confirmed')`.execute(db);
  await sql`create index bookings_by_series on bookings (recurrence_parent_id) where recurrence_parent_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table bookings`.execute(db);
}
