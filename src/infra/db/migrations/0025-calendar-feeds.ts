import { sql, type Kysely } from 'kysely';

/**
 * Calendar feed tokens (contract §18). A feed reads as its creator, so the creator's claims are
 * kept as they were when the feed was made; only a hash of the token is stored, and a revoked
 * feed keeps its row (revoked_at) so that its URL answers 401 rather than vanishing from the record.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table calendar_feeds (
      id uuid primary key,
      workspace uuid,
      owner_sub text not null,
      owner_level smallint not null,
      owner_groups text[] not null,
      owner_email text,
      bookable_resource_id uuid,
      token_hash text not null unique,
      created_at timestamptz not null,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index calendar_feeds_by_owner on calendar_feeds (owner_sub, workspace, created_at, id) where revoked_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table calendar_feeds`.execute(db);
}
