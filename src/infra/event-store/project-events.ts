import type { InlineProjection, RecordedEvent } from './event-store.js';

/**
 * Applies events to every projection that handles them: what applying each event in turn to each
 * of its projections, in the projections' order, writes. Events that only set-based projections
 * handle go in runs, each projection applying a run at once (a few statements a run, not a few an
 * event): a set-based projection reads nothing another writes for them, so the order among the
 * projections within a run cannot change what they write. Any other event ends the run before it
 * and is applied alone, so that the projections reading what it changes see it where it stands.
 */
export async function projectEvents<Trx>(projections: readonly InlineProjection<Trx>[], trx: Trx, events: readonly RecordedEvent[]): Promise<void> {
  let run: RecordedEvent[] = [];
  const applyRun = async () => {
    for (const projection of projections) {
      const handled = run.filter((event) => projection.handles.has(event.type));
      if (handled.length > 0) await projection.apply(trx, handled);
    }
    run = [];
  };
  for (const event of events) {
    const handlers = projections.filter((projection) => projection.handles.has(event.type));
    if (handlers.every((projection) => projection.setBased)) {
      run.push(event);
      continue;
    }
    await applyRun();
    for (const projection of handlers) await projection.apply(trx, [event]);
  }
  await applyRun();
}

/** A projection's `apply` from the way it applies one event: the events one at a time, in order. */
export function oneAtATime<Trx>(applyOne: (trx: Trx, event: RecordedEvent) => Promise<void>): InlineProjection<Trx>['apply'] {
  return async (trx, events) => {
    for (const event of events) await applyOne(trx, event);
  };
}
