import type { Counter } from 'prom-client';
import type { EventStore } from '../event-store/event-store.js';

/** The event store, counting every event it appended by type. */
export function countAppendedEvents<Trx>(eventStore: EventStore<Trx>, counter: Counter<'type'>): EventStore<Trx> {
  return {
    ...eventStore,
    async appendToStream(...args) {
      const result = await eventStore.appendToStream(...args);
      for (const event of result.events) counter.inc({ type: event.type });
      return result;
    },
  };
}
