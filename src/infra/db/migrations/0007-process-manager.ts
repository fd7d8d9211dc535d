import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A processor's place in the global log, moved in the transaction that applies its effect.
  await sql`
    create table processor_checkpoints (
      name text primary key,
      transaction_id xid8 not null,
      global_position bigint not null,
      updated_at timestamptz not null default now()
    )`.execute(db);

  // Kept inline from booking events. claimed_until is the lease of a worker firing the timer: the
  // claim commits at once because the move's own append rewrites these rows.
  await sql`
    create table timers (
      booking_id uuid not null,
      kind text not null check (kind in ('reminder', 'no_show', 'complete', 'expire_pending')),
      due_at timestamptz not null,
      claimed_until timestamptz,
      primary key (booking_id, kind)
    )`.execute(db);
  await sql`create index timers_by_due on timers (due_at)`.execute(db);

  // Queued by the webhook relay with its checkpoint. payload is json, not jsonb, so the body keeps
  // the envelope's field order; status 'dead' rows are the dead letters.
  await sql`create sequence webhook_delivery_order`.execute(db);
  await sql`
    create table webhook_deliveries (
      id uuid primary key,
      event_id uuid not null unique,
      event text not null,
      workspace uuid not null,
      ordering_key text not null,
      resource_id text not null,
      payload json not null,
      queue_order bigint not null default nextval('webhook_delivery_order'),
      status text not null check (status in ('pending', 'dead')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      claimed_until timestamptz,
      last_error text,
      last_status_code integer,
      dead_lettered_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_deliveries_queue on webhook_deliveries (ordering_key, queue_order) where status = 'pending'`.execute(db);
  await sql`create index webhook_dead_letters on webhook_deliveries (dead_lettered_at desc, id) where status = 'dead'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table webhook_deliveries`.execute(db);
  await sql`drop sequence webhook_delivery_order`.execute(db);
  await sql`drop table timers`.execute(db);
  await sql`drop table processor_checkpoints`.execute(db);
}
