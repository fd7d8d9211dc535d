import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Locks the rows of these streams in id order, by code unit as JavaScript sorts (two writers
 * locking overlapping sets in the same order queue instead of deadlocking), and answers their
 * revisions; a stream without a row has none.
 * Held to the transaction's end: no other append to them lands meanwhile.
 */
export async function lockStreamRows(trx: Transaction<DB>, streamIds: readonly string[]): Promise<Map<string, number>> {
  if (streamIds.length === 0) return new Map();
  const rows = await trx.selectFrom('streams').select(['stream_id', 'stream_revision']).where('stream_id', 'in', [...streamIds]).orderBy(sql`stream_id collate "C"`).forUpdate().execute();
  return new Map(rows.map((row) => [row.stream_id, Number(row.stream_revision)]));
}
