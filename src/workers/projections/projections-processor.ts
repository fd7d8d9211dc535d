import { sql, type Transaction } from 'kysely';
import type { DB } from '../../infra/db/schema.js';
import { positionOf, type LogPosition, type RecordedEvent } from '../../infra/event-store/event-store.js';
import { projectEvents } from '../../infra/event-store/project-events.js';
import { projectionsCheckpoint } from '../../infra/event-store/projection-progress.js';
import type { Projector } from '../../projections/projector.js';
import type { FirstPosition } from '../../infra/event-store/processor-checkpoint.js';
import type { Processor } from '../processor.js';

export type ProjectionsProcessor = Processor & {
  /** The position the last batch handled reached, taken once read; valid once its transaction committed. */
  takeReached(): LogPosition | undefined;
};

/**
 * The projectors that follow the log, as one transactional processor: a batch's read-model writes
 * and the checkpoint commit together. A batch also notifies `projections_advanced` with its
 * position on commit (on PostgreSQL), so commands waiting in other processes go on at once.
 */
export function projectionsProcessor(projectors: readonly Projector[], options: { notify: boolean; firstPosition: FirstPosition }): ProjectionsProcessor {
  let reached: LogPosition | undefined;
  const handleBatch = async (trx: Transaction<DB>, events: RecordedEvent[]) => {
    await projectEvents(projectors, trx, events);
    const last = positionOf(events.at(-1)!);
    if (options.notify) await sql`select pg_notify('projections_advanced', ${`${last.transactionId}:${last.globalPosition}`})`.execute(trx);
    reached = last;
  };
  return {
    name: projectionsCheckpoint,
    mode: 'transactional',
    firstPosition: options.firstPosition,
    handle: (trx, event) => handleBatch(trx, [event]),
    handleBatch,
    takeReached() {
      const taken = reached;
      reached = undefined;
      return taken;
    },
  };
}
