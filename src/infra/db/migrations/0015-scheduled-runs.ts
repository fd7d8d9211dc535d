import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // When each daily job last ran, so that a worker started after the job's hour knows whether the
  // day's run is still to be done (and a second instance taking over does not run it again).
  await sql`
    create table scheduled_runs (
      name text primary key,
      last_run_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table scheduled_runs`.execute(db);
}
