import { sql } from 'kysely';

/**
 * A one-row FROM item that commits the statement's transaction without waiting for its WAL to reach
 * the disk (synchronous_commit off, for this transaction only): what a crash may lose of it within
 * a fraction of a second is bookkeeping (a rate-limit count, an idempotency claim), never an
 * event. It turns an fsync per request into none, in the same single statement.
 */
export const asyncCommit = sql`(select set_config('synchronous_commit', 'off', true)) as async_commit`;
