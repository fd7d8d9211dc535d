import { sql, type Kysely } from 'kysely';

/**
 * Calendar passwords (contract §25), beside the feed tokens: credentials are data, not events.
 * Only a scrypt hash is stored, its parameters in the same string. The creator's claims are kept
 * as they were when the password was made; a deleted password's row is gone, so every node's next
 * lookup by username (the unique index) finds nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table calendar_passwords (
      id uuid primary key,
      username text not null unique,
      label text not null,
      workspace uuid,
      owner_sub text not null,
      owner_level smallint not null,
      owner_groups text[] not null,
      owner_email text,
      password_hash text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index calendar_passwords_by_owner on calendar_passwords (workspace, owner_sub, created_at, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table calendar_passwords`.execute(db);
}
