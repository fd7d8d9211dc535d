import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Wakes the log followers and the webhook senders of every instance: PostgreSQL delivers a
  // notification when the inserting transaction commits, never for one that rolls back. A commit
  // that notifies takes a server-wide lock until its WAL is flushed, so a notification on every
  // append would serialise the appends: a transaction notifies only when no other one of this
  // database is about to (the try-lock is held to its end). The others commit alongside it; a
  // follower that woke before they did is woken by the next notifying commit, or polls. The key:
  // lock-keys.ts's notifyLockKeyPrefix.
  await sql`
    create function notify_channel() returns trigger language plpgsql as $$
    begin
      if pg_try_advisory_xact_lock(hashtextextended('workspace-booking:notify:' || tg_argv[0], 0)) then
        perform pg_notify(tg_argv[0], '');
      end if;
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
