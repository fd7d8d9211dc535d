import type { Counter } from 'prom-client';
import type { AppendResult, EventStore, StreamTurn } from '../event-store/event-store.js';

/** The event store, counting every event it appended by type. */
export function countAppendedEvents<Trx>(eventStore: EventStore<Trx>, counter: Counter<'type'>): EventStore<Trx> {
  const counted = (result: AppendResult) => {
    for (const event of result.events) counter.inc({ type: event.type });
  };
  const inTurn = eventStore.inTurn?.bind(eventStore);
  return {
    ...eventStore,
    async appendToStream(...args) {
      const result = await eventStore.appendToStream(...args);
      counted(result);
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
    ...(eventStore.appendToStreams && {
      async appendToStreams(appends) {
        const events = await eventStore.appendToStreams!(appends);
        for (const event of events) counter.inc({ type: event.type });
        return events;
      },
    }),
    // Counted once the turn has committed.
    inTurn: inTurn
      ? async <T>(streamId: string, work: (turn: StreamTurn<Trx>) => Promise<T>): Promise<T> => {
          const results: AppendResult[] = [];
          const answer = await inTurn<T>(streamId, (turn) =>
            work({
              ...turn,
              async append(...args) {
                const result = await turn.append(...args);
                results.push(result);
                return result;
              },
            }),
          );
          results.forEach(counted);
          return answer;
        }
      : undefined,
  };
}
