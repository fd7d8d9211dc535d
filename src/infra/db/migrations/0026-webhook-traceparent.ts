import { sql, type Kysely } from 'kysely';

/** A queued webhook delivery remembers the trace of the request that wrote its event (contract §18). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries add column traceparent text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries drop column traceparent`.execute(db);
}
