import type { Database } from '../infra/db/database.js';
import { logStart, positionOf, type EventStore, type LogPosition } from '../infra/event-store/event-store.js';
import { lockCheckpoint, moveCheckpoint, readCheckpoint, samePosition } from '../infra/event-store/processor-checkpoint.js';
import type { Processor } from './processor.js';

/**
 * The processor's checkpoint, placed at its first position when it has none (a relay: the end of
 * the log). A relay's is placed before the service takes a write (placeRelayCheckpoints): placed
 * at its first round instead, it would start after the writes answered meanwhile, which it would
 * then never send.
 */
export async function placeCheckpoint(deps: { db: Database; eventStore: EventStore }, processor: Pick<Processor, 'name' | 'firstPosition'>): Promise<LogPosition> {
  const readLogHead = deps.eventStore.readLogHead?.bind(deps.eventStore);
  const readLogEnd = readLogHead ? async () => (await readLogHead()) ?? logStart : undefined;
  return readCheckpoint(deps.db, processor.name, processor.firstPosition, readLogEnd);
}

/**
 * Hands the next events after the processor's checkpoint to it and moves the checkpoint past them,
 * the events it ignores included (a processor that cares about few events never lags behind).
 * Answers how many events it read.
 */
export async function processBatch(deps: { db: Database; eventStore: EventStore }, processor: Processor, batchSize: number): Promise<number> {
  const { db, eventStore } = deps;
  const after = await placeCheckpoint(deps, processor);
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
