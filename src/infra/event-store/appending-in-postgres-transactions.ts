import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { appendsInPostgresTransactionsKey } from '../db/lock-keys.js';
import type { DB } from '../db/schema.js';
import { logStart, type EventStore, type ExpectedRevision, type InlineProjection, type RecordedEvent } from './event-store.js';
import { projectEvents } from './project-events.js';

function firstRevisionAfter(streamId: string, expected: ExpectedRevision): number {
  if (expected === 'no_stream') return 0;
  if (typeof expected === 'number') return expected + 1;
  throw new Error(`an append to ${streamId} with work in a PostgreSQL transaction needs the revision it expects, not '${expected}'`);
}

/**
 * A store whose appends are no PostgreSQL transactions (EventStoreDB), for the appends that carry
 * work in one (record writes: their rules' checks, the rows they stand on, keys and bytes). Such an
 * append opens a PostgreSQL transaction and, in it:
 * 1. takes its turn: one advisory lock serializes all these appends across processes (their rules
 *    span streams and kinds: a device's zone, a unique email);
 * 2. runs the append's work: its checks (waitingForProjections runs them once the read models have
 *    passed the log's head), `projections` applied to the read models (a constraint that fails
 *    refuses the write before anything is appended), the writes beside the events;
 * 3. appends, expecting the revision the decision was taken on (refused: all rolls back);
 * 4. commits. The events handed to the work carry their revisions; the log gives their positions.
 * Should the commit fail after the append, the followers of the log apply the event (they apply
 * what such a transaction wrote idempotently), and the next such append waits for them to.
 */
export function appendingInPostgresTransactions(
  store: EventStore<Transaction<DB>>,
  { db, projections }: { db: Database; projections: readonly InlineProjection<Transaction<DB>>[] },
): EventStore<Transaction<DB>> {
  return {
    ...store,
    async appendToStream(streamId, events, expectedRevision, options = {}) {
      const { inTransaction } = options;
      if (!inTransaction) return store.appendToStream(streamId, events, expectedRevision);
      const first = firstRevisionAfter(streamId, expectedRevision);
      const recordedAt = new Date();
      const prepared: RecordedEvent[] = events.map((event, i) => ({
        ...event,
        id: event.id ?? randomUUID(),
        metadata: event.metadata ?? {},
        streamId,
        streamRevision: first + i,
        ...logStart,
        recordedAt,
      }));
      return db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${appendsInPostgresTransactionsKey}))`.execute(trx);
        let projected = false;
        const project = async () => {
          if (projected) return;
          projected = true;
          await projectEvents(projections, trx, prepared);
        };
        await inTransaction(trx, prepared, project);
        await project();
        return store.appendToStream(
          streamId,
          prepared.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })),
          expectedRevision,
        );
      });
    },
  };
}
