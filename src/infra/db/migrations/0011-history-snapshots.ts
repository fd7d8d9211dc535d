import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Folds of a resource stream's bookings up to a revision, so that an asOf answer starts from the
  // nearest one instead of the stream's first event. known_at is the latest recorded_at of the
  // events folded in: the snapshot holds only what was known by then. json, not jsonb: it is
  // only ever read whole, and json hands back its text without re-serialising megabytes.
  await sql`
    create table history_snapshots (
      stream_id text not null,
      revision bigint not null,
      known_at timestamptz not null,
      state json not null,
      primary key (stream_id, revision)
    )`.execute(db);
  await sql`create index history_snapshots_by_time on history_snapshots (stream_id, known_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table history_snapshots`.execute(db);
}
