import { positionOf, type EventStore } from './event-store.js';
import type { ProjectionProgress } from './projection-progress.js';

/**
 * The store whose read models follow the log (PROJECTIONS=async), keeping read-your-writes: an
 * append answers once the projections have passed its last event, and the revision a decision
 * appends on is answered once they have passed the stream's last event, so the state read after
 * it is at least that revision (a newer one fails the append's expectation and is decided again).
 * A wait past the bound is a 503; the append has committed by then and its read models follow.
 */
export function waitingForProjections<Trx>(store: EventStore<Trx>, progress: ProjectionProgress): EventStore<Trx> {
  return {
    ...store,
    projectsAfterCommit: true,
    async appendToStream(...args) {
      const result = await store.appendToStream(...args);
      await progress.waitFor(positionOf(result.events.at(-1)!));
      return result;
    },
    async readStreamRevision(streamId) {
      const last = await store.readLastEvent(streamId);
      if (!last) return null;
      await progress.waitFor(positionOf(last));
      return last.streamRevision;
    },
  };
}
