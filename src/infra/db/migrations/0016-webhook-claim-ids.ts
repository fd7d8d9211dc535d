import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Names the claim that leased a delivery: a sender whose database connection failed in the middle
  // of its bookkeeping finishes it on recovery for the deliveries it still holds, and gives back
  // those of a claim whose answer it lost, instead of leaving them to wait out their lease.
  await sql`alter table webhook_deliveries add column claim_id uuid`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries drop column claim_id`.execute(db);
}
