import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { logStart, type LogPosition } from './event-store.js';
import { isFinalInLog } from './log-horizon.js';

const positionColumns = [sql<string>`transaction_id::text`.as('transaction_id'), 'global_position'] as const;

const toPosition = (row: { transaction_id: string; global_position: number }): LogPosition => ({
  transactionId: row.transaction_id,
  globalPosition: Number(row.global_position),
});

export const samePosition = (a: LogPosition, b: LogPosition) => a.transactionId === b.transactionId && a.globalPosition === b.globalPosition;

/** Where a processor without a checkpoint begins: the start of the log, or its end (history is not its business). */
export type FirstPosition = 'log-start' | 'log-end';

/** The last event that is final in the global log; the start of the log when there is none. */
async function logEnd(db: Executor): Promise<LogPosition> {
  const row = await db
    .selectFrom('events')
    .select(positionColumns)
    .where(isFinalInLog())
    .orderBy('transaction_id', 'desc')
    .orderBy('global_position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toPosition(row) : logStart;
}

/**
 * The processor's place in the log. A new processor starts at `first`; the end is taken below the
 * log's horizon, so a transaction still running when it is placed is delivered, not passed over.
 * `readLogEnd` tells the end of a log kept elsewhere (EventStoreDB's `$all`).
 */
export async function readCheckpoint(
  db: Executor,
  name: string,
  first: FirstPosition = 'log-start',
  readLogEnd: () => Promise<LogPosition> = () => logEnd(db),
): Promise<LogPosition> {
  const row = await db.selectFrom('processor_checkpoints').select(positionColumns).where('name', '=', name).executeTakeFirst();
  if (row) return toPosition(row);
  const start = first === 'log-end' ? await readLogEnd() : logStart;
  await db
    .insertInto('processor_checkpoints')
    .values({ name, transaction_id: start.transactionId, global_position: start.globalPosition })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return readCheckpoint(db, name);
}

/** Reads the checkpoint and holds its row until the transaction ends. */
export async function lockCheckpoint(db: Executor, name: string): Promise<LogPosition> {
  const row = await db.selectFrom('processor_checkpoints').select(positionColumns).where('name', '=', name).forUpdate().executeTakeFirstOrThrow();
  return toPosition(row);
}

/** Moves the checkpoint from `from` to `to`; false when another instance moved it meanwhile. */
export async function moveCheckpoint(db: Executor, name: string, from: LogPosition, to: LogPosition): Promise<boolean> {
  const result = await db
    .updateTable('processor_checkpoints')
    .set({ transaction_id: to.transactionId, global_position: to.globalPosition, updated_at: sql`now()` })
    .where('name', '=', name)
    .where(sql<boolean>`transaction_id = ${from.transactionId}::xid8`)
    .where('global_position', '=', from.globalPosition)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
