import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One token bucket per limited client (contract §18), shared by every process and node: `tokens`
  // as of `updated_at`, refilled continuously; `taken` is how many the last statement took.
  await sql`
    create table rate_limit_buckets (
      key text primary key,
      tokens double precision not null,
      updated_at timestamptz not null,
      taken integer not null
    )`.execute(db);
  await sql`create index rate_limit_buckets_updated_at on rate_limit_buckets (updated_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table rate_limit_buckets`.execute(db);
}
