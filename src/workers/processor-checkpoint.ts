import { sql } from 'kysely';
import type { Executor } from '../infra/db/database.js';
import { logStart, type LogPosition } from '../infra/event-store/event-store.js';

const positionColumns = [sql<string>`transaction_id::text`.as('transaction_id'), 'global_position'] as const;

const toPosition = (row: { transaction_id: string; global_position: number }): LogPosition => ({
  transactionId: row.transaction_id,
  globalPosition: Number(row.global_position),
});

export const samePosition = (a: LogPosition, b: LogPosition) => a.transactionId === b.transactionId && a.globalPosition === b.globalPosition;

/** The processor's place in the log; a new processor starts at the beginning. */
export async function readCheckpoint(db: Executor, name: string): Promise<LogPosition> {
  const row = await db.selectFrom('processor_checkpoints').select(positionColumns).where('name', '=', name).executeTakeFirst();
  if (row) return toPosition(row);
  await db
    .insertInto('processor_checkpoints')
    .values({ name, transaction_id: logStart.transactionId, global_position: logStart.globalPosition })
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
