import type { InlineProjection } from '../infra/event-store/event-store.js';
import { projectors } from './projectors.js';

/** Applies appended events to every read model in the append's transaction: clients read their writes. */
export const inlineProjection: InlineProjection = async (trx, events) => {
  for (const event of events) {
    for (const projector of projectors) {
      if (projector.handles.has(event.type)) await projector.apply(trx, event);
    }
  }
};
