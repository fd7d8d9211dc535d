import { sql } from 'kysely';
import type { Database } from '../infra/db/database.js';
import type { RecordedEvent } from '../infra/event-store/event-store.js';
import { projectors } from './projectors.js';

const batchSize = 1_000;

/**
 * Drops every inline read model and fills it again from the whole log, in one transaction.
 * The tables are locked against writers first (readers keep reading the old rows until commit), so
 * no append's inline projection can interleave: an append that is still running when the lock is
 * taken waits, and projects its own events onto the rebuilt tables once the rebuild commits.
 */
export async function rebuildReadModels(db: Database): Promise<{ events: number }> {
  const tables = projectors.flatMap((p) => p.tables);
  return db.transaction().execute(async (trx) => {
    await sql`lock table ${sql.join(tables.map((t) => sql.table(t)))} in exclusive mode`.execute(trx);
    // Children first: bookings refer to resources.
    for (const table of [...tables].reverse()) await trx.deleteFrom(table).execute();
    let count = 0;
    for (let after = { transactionId: '0', globalPosition: 0 }; ; ) {
      const { rows } = await sql<RecordedEvent>`
        select event_id as id, event_type as type, data, metadata, stream_id as "streamId",
               stream_revision as "streamRevision", global_position as "globalPosition",
               transaction_id::text as "transactionId", recorded_at as "recordedAt"
        from events
        where (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)
        order by transaction_id, global_position
        limit ${batchSize}`.execute(trx);
      for (const event of rows) {
        for (const projector of projectors) if (projector.handles.has(event.type)) await projector.apply(trx, event);
      }
      count += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < batchSize) return { events: count };
      after = { transactionId: last.transactionId, globalPosition: last.globalPosition };
    }
  });
}
