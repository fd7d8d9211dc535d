import type { Kysely } from 'kysely';

/**
 * A quota's hold inside the append's statement (docs/booking.md, "How the quota holds under concurrency"),
 * as the blackout guard is: no transaction, no round trip of its own. All of it is functions and a
 * trigger, which live in src/infra/db/functions (quota-bookings.sql, placement-20-quota-hold.sql)
 * since migration 0040; this step stays so that the databases that ran it find it.
 */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
