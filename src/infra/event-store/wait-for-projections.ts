import type { Transaction } from 'kysely';
import { DomainError } from '../../domain/domain-error.js';
import type { DB } from '../db/schema.js';
import { isAtOrAfter, positionOf, type EventStore, type InTransaction, type LogPosition, type RecordedEvent } from './event-store.js';
import { readProjectionsCheckpoint, type ProjectionProgress } from './projection-progress.js';

/** How often an append whose checks found the read models behind the log waits for them and tries again. */
const maxAttemptsBehind = 25;

/** The read models had not passed the log's head when an append's checks were to run. */
class ReadModelsBehind extends Error {
  constructor(readonly head: LogPosition) {
    super('the read models have not passed the head of the log');
  }
}

/**
 * The append's work in its transaction, run only once the read models have passed the log's head
 * as the transaction sees them: for a store whose appends are no PostgreSQL transactions and whose
 * work in one takes turns (appendingInPostgresTransactions), so its checks see every event appended
 * before, even one whose own transaction failed to commit after its append.
 */
function onCurrentReadModels(readLogHead: () => Promise<LogPosition | null>, inTransaction: InTransaction<Transaction<DB>>): InTransaction<Transaction<DB>> {
  return async (trx, events, project) => {
    const head = await readLogHead();
    if (head && !isAtOrAfter(await readProjectionsCheckpoint(trx), head)) throw new ReadModelsBehind(head);
    await inTransaction(trx, events, project);
  };
}

/**
 * The store whose read models follow the log (PROJECTIONS=async), keeping read-your-writes: an
 * append answers once the projections have passed its last event, and the revision a decision
 * appends on is answered once they have passed the stream's last event, so the state read after
 * it is at least that revision (a newer one fails the append's expectation and is decided again).
 * A wait past the bound is a 503; the append has committed by then and its read models follow.
 * Where the store tells the log's head (EventStoreDB), an append's checks in its transaction run
 * once the projections have passed it: found behind, the append rolls back, waits and tries again.
 */
export function waitingForProjections(store: EventStore<Transaction<DB>>, progress: ProjectionProgress): EventStore<Transaction<DB>> {
  return {
    ...store,
    projectsAfterCommit: true,
    // A turn decides on read models that may lag behind the stream's row: optimistic retries decide here.
    inTurn: undefined,
    // Offered only where the read models are written in the append: several streams go through appendInOneTransaction here.
    appendToStreams: undefined,
    // Each revision is answered once the read models have passed it: readStreamRevision below, stream by stream.
    readStreamRevisions: undefined,
    async appendToStream(streamId, events, expectedRevision, options = {}) {
      const readLogHead = store.readLogHead?.bind(store);
      const inTransaction = options.inTransaction && readLogHead ? onCurrentReadModels(readLogHead, options.inTransaction) : options.inTransaction;
      for (let attempt = 1; ; attempt++) {
        try {
          const result = await store.appendToStream(streamId, events, expectedRevision, { ...options, inTransaction });
          await progress.waitFor(positionOf(result.events.at(-1)!));
          return result;
        } catch (error) {
          if (!(error instanceof ReadModelsBehind)) throw error;
          if (attempt >= maxAttemptsBehind) throw new DomainError('dependency_unavailable', 'the read models keep falling behind the log; try again');
          await progress.waitFor(error.head);
        }
      }
    },
    // Several streams in one transaction (a blackout and its cancellations): answered once the read models passed them all.
    ...(store.appendInOneTransaction && {
      async appendInOneTransaction(work) {
        let last: RecordedEvent | undefined;
        const result = await store.appendInOneTransaction!((trx, append) =>
          work(trx, async (...args) => {
            const events = await append(...args);
            for (const event of events) if (!last || event.globalPosition > last.globalPosition) last = event;
            return events;
          }),
        );
        if (last) await progress.waitFor(positionOf(last));
        return result;
      },
    }),
    async readStreamRevision(streamId) {
      const last = await store.readLastEvent(streamId);
      if (!last) return null;
      await progress.waitFor(positionOf(last));
      return last.streamRevision;
    },
  };
}
