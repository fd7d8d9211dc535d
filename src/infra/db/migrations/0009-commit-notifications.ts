import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Wakes the log followers and the webhook senders of every instance: PostgreSQL delivers a
  // notification when the inserting transaction commits, never for one that rolls back. One per
  // statement, with no payload, so that a busy log costs one notification per append.
  await sql`
    create function notify_channel() returns trigger language plpgsql as $$
    begin
      perform pg_notify(tg_argv[0], '');
      return null;
    end $$`.execute(db);
  await sql`create trigger events_appended after insert on events for each statement execute function notify_channel('events_appended')`.execute(db);
  await sql`
    create trigger webhook_deliveries_queued after insert on webhook_deliveries
    for each statement execute function notify_channel('webhook_deliveries_queued')`.execute(db);
  // The senders look for the due heads of the queue in queue order.
  await sql`create index webhook_deliveries_pending on webhook_deliveries (queue_order) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_deliveries_pending`.execute(db);
  await sql`drop trigger webhook_deliveries_queued on webhook_deliveries`.execute(db);
  await sql`drop trigger events_appended on events`.execute(db);
  await sql`drop function notify_channel()`.execute(db);
}
