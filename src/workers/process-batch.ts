import type { Database } from '../infra/db/database.js';
import { logStart, positionOf, type EventStore } from '../infra/event-store/event-store.js';
import { lockCheckpoint, moveCheckpoint, readCheckpoint, samePosition } from '../infra/event-store/processor-checkpoint.js';
import type { Processor } from './processor.js';

/**
 * Hands the next events after the processor's checkpoint to it and moves the checkpoint past them,
 * the events it ignores included (a processor that cares about few events never lags behind).
 * Answers how many events it read.
 */
export async function processBatch(deps: { db: Database; eventStore: EventStore }, processor: Processor, batchSize: number): Promise<number> {
  const { db, eventStore } = deps;
  const readLogHead = eventStore.readLogHead?.bind(eventStore);
  const readLogEnd = readLogHead ? async () => (await readLogHead()) ?? logStart : undefined;
  const after = await readCheckpoint(db, processor.name, processor.firstPosition, readLogEnd);
  const events = await eventStore.readAll({ after, maxCount: batchSize, follower: processor.name });
  const last = events.at(-1);
  if (!last) return 0;

  if (processor.mode === 'transactional') {
    await db.transaction().execute(async (trx) => {
      // Another instance that moved the checkpoint meanwhile has applied these events already.
      if (!samePosition(await lockCheckpoint(trx, processor.name), after)) return;
      if (processor.handleBatch) await processor.handleBatch(trx, events);
      else for (const event of events) await processor.handle(trx, event);
      await moveCheckpoint(trx, processor.name, after, positionOf(last));
    });
    return events.length;
  }

  if (processor.handleBatch) {
    await processor.handleBatch(events);
    await moveCheckpoint(db, processor.name, after, positionOf(last));
    return events.length;
  }
  let done = after;
  try {
    for (const event of events) {
      await processor.handle(event);
      done = positionOf(event);
    }
  } finally {
    // Keeps what succeeded before a failure, so a retry repeats only the failed event onwards.
    if (done !== after) await moveCheckpoint(db, processor.name, after, done);
  }
  return events.length;
}
