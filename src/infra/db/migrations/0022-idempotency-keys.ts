import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The answers kept for Idempotency-Key (contract §18), shared by every process and node. A row is
  // in flight (status null) while its first request runs, held until lease_until: a process that
  // died mid-request frees the key then. claim_id tells the holder's completion from a later taker's.
  await sql`
    create table idempotency_keys (
      workspace text not null,
      sub text not null,
      key text not null,
      fingerprint text not null,
      claim_id uuid not null,
      state text not null check (state in ('in_flight', 'done')),
      status smallint,
      content_type text,
      body text,
      lease_until timestamptz not null,
      expires_at timestamptz not null,
      primary key (workspace, sub, key)
    )`.execute(db);
  await sql`create index idempotency_keys_expires_at on idempotency_keys (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table idempotency_keys`.execute(db);
}
