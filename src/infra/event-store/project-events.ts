import type { InlineProjection, RecordedEvent } from './event-store.js';

/** Applies events to every projection that handles them, in the projections' order. */
export async function projectEvents<Trx>(projections: readonly InlineProjection<Trx>[], trx: Trx, events: readonly RecordedEvent[]): Promise<void> {
  for (const event of events) {
    for (const projection of projections) {
      if (projection.handles.has(event.type)) await projection.apply(trx, event);
    }
  }
}
