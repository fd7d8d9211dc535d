import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table streams (
      stream_id text primary key,
      stream_revision bigint not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
  // transaction_id lets readers of the global log stop below the oldest running transaction,
  // so an event committed late by a slow transaction is never skipped.
  await sql`
    create table events (
      global_position bigint generated always as identity primary key,
      transaction_id xid8 not null default pg_current_xact_id(),
      stream_id text not null,
      stream_revision bigint not null,
      event_id uuid not null unique,
      event_type text not null,
      data jsonb not null,
      metadata jsonb not null default '{}',
      recorded_at timestamptz not null default now(),
      unique (stream_id, stream_revision)
    )`.execute(db);
  await sql`create index events_log_order on events (transaction_id, global_position)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table events`.execute(db);
  await sql`drop table streams`.execute(db);
}
