import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // notify_channel and its triggers on events and webhook_deliveries: src/infra/db/functions/notify-channel.sql.
  // The senders look for the due heads of the queue in queue order.
  await sql`create index webhook_deliveries_pending on webhook_deliveries (queue_order) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_deliveries_pending`.execute(db);
}
