import { sql, type Kysely } from 'kysely';

/**
 * Contract §26, rooms that answer invitations:
 * - `bookings.calendar_uid`: the UID of the organizer's event that made a booking (null for all
 *   others, and so for every booking made before);
 * - `calendar_events`: each organizer's event as stored in its `bookings/` calendar (the text with
 *   the rooms' answers), kept as a tombstone once deleted so that a sync reports it removed;
 * - `calendar_inbox`: the rooms' REPLYs in the organizer's inbox.
 * Both tables keep the transaction that last wrote each row (`changed_in`, as bookings do for
 * §25's sync tokens; the triggers are in src/infra/db/functions/calendar-changed-in.sql).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['bookings', 'bookings_archive']) await sql`alter table ${sql.table(table)} add column calendar_uid text`.execute(db);
  await sql`
    create table calendar_events (
      workspace text not null,
      owner text not null,
      name text not null,
      uid text not null,
      organizer_email text not null,
      source_text text not null,
      source_hash text not null,
      text text not null,
      etag text not null,
      schedule_tag text not null,
      rooms jsonb not null,
      start_time timestamptz,
      end_time timestamptz,
      removed boolean not null default false,
      stream_revision bigint not null,
      updated_at timestamptz not null,
      changed_in xid8 not null default pg_current_xact_id(),
      primary key (workspace, owner, name))`.execute(db);
  await sql`create unique index calendar_events_uid on calendar_events (workspace, owner, uid) where not removed`.execute(db);
  await sql`create index calendar_events_changes on calendar_events (owner, changed_in)`.execute(db);
  await sql`
    create table calendar_inbox (
      workspace text not null,
      owner text not null,
      reply_id uuid not null,
      event_name text not null,
      uid text not null,
      attendee text not null,
      text text not null,
      etag text not null,
      delivered_at timestamptz not null,
      removed boolean not null default false,
      changed_in xid8 not null default pg_current_xact_id(),
      primary key (workspace, owner, reply_id))`.execute(db);
  await sql`create index calendar_inbox_changes on calendar_inbox (owner, changed_in)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Its triggers go with the tables: the script is applied again after a later up.
  await sql`delete from database_functions where name = 'calendar-changed-in.sql'`.execute(db);
  await sql`drop table calendar_inbox`.execute(db);
  await sql`drop table calendar_events`.execute(db);
  for (const table of ['bookings', 'bookings_archive']) await sql`alter table ${sql.table(table)} drop column calendar_uid`.execute(db);
}
