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
    ...(eventStore.appendInOneTransaction && {
      appendInOneTransaction(work) {
        // Counted once the unit of work has committed: a rolled-back append added nothing to the log.
        const appended: string[] = [];
        return eventStore.appendInOneTransaction!(async (trx, append) =>
          work(trx, async (...args) => {
            const events = await append(...args);
            appended.push(...events.map((e) => e.type));
            return events;
          }),
        ).then((result) => {
          for (const type of appended) counter.inc({ type });
          return result;
        });
      },
    }),
  };
}
