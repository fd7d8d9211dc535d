import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import { WrongExpectedRevisionError } from './wrong-expected-revision-error.js';

/**
 * A stream locked after a writer whose transaction id is newer than this one's had appended to it:
 * this transaction took its id with the first row it locked, and waited for that writer on a later
 * row. Appending now, it would follow that writer in the stream and precede it in the log, which is
 * read in transaction id order (migration 0001): the log would break the stream's order (a replay
 * would see a booking's slot taken before it was freed). Decided again in a new transaction.
 */
export class OvertakenInLog extends WrongExpectedRevisionError {
  constructor(streamId: string, revision: number | null) {
    super(streamId, revision ?? 'no_stream', revision);
    this.message = `stream ${streamId}: appended to by a newer transaction while this one waited for it; decided again in a new transaction`;
  }
}

/**
 * Locks the rows of these streams in id order, by code unit as JavaScript sorts (two writers
 * locking overlapping sets in the same order queue instead of deadlocking), and answers their
 * revisions; a stream without a row has none.
 * Held to the transaction's end: no other append to them lands meanwhile. OvertakenInLog when a
 * newer transaction appended to one of them while this one waited.
 */
export async function lockStreamRows(trx: Transaction<DB>, streamIds: readonly string[]): Promise<Map<string, number>> {
  if (streamIds.length === 0) return new Map();
  const rows = await trx.selectFrom('streams').select(['stream_id', 'stream_revision']).where('stream_id', 'in', [...streamIds]).orderBy(sql`stream_id collate "C"`).forUpdate().execute();
  const revisions = new Map(rows.map((row) => [row.stream_id, Number(row.stream_revision)]));
  if (rows.length === 0) return revisions;
  // Each stream's last event (the log kept each stream's order so far: its last is its newest transaction's).
  const last = rows.map((row) => sql`(${row.stream_id}::text, ${row.stream_revision}::bigint)`);
  const { rows: overtaken } = await sql<{ stream_id: string }>`
    select stream_id from events where (stream_id, stream_revision) in (${sql.join(last)}) and transaction_id > pg_current_xact_id() limit 1`.execute(trx);
  if (overtaken[0]) throw new OvertakenInLog(overtaken[0].stream_id, revisions.get(overtaken[0].stream_id) ?? null);
  return revisions;
}
