import { FORWARDS, START, type EventStoreDBClient } from '@eventstore/db-client';
import { logStart, positionOf, type LogPosition, type RecordedEvent } from './event-store.js';
import { eventsOf, isAfter, isSystemEvent } from './eventstoredb-reads.js';

/**
 * A page of `$all`: the service's events among those read, the position the next page continues
 * after (the last event read, a system event too, so that a run of them is passed), and whether
 * the log ended within the page.
 */
export type AllPage = { events: RecordedEvent[]; next: LogPosition; end: boolean };

export type ReadAllPage = (read: { after: LogPosition; maxCount: number }) => Promise<AllPage>;

/**
 * Pages of `$all` as it stands, by plain bounded reads: unlike a subscription's, a page ends early
 * only where the log does, however the server paces its answer (a replay from the start).
 */
export const eventStoreDbPages =
  (client: EventStoreDBClient): ReadAllPage =>
  async ({ after, maxCount }) => {
    const fromStart = after.transactionId === logStart.transactionId && after.globalPosition === logStart.globalPosition;
    const from = { commit: BigInt(after.transactionId), prepare: BigInt(after.globalPosition) };
    // Forwards from a position includes the event there: one more is read, and that one passed over.
    const read = client.readAll({ fromPosition: fromStart ? START : from, direction: FORWARDS, maxCount: BigInt(fromStart ? maxCount : maxCount + 1) });
    const events: RecordedEvent[] = [];
    let next = after;
    let count = 0;
    for await (const { position, ...event } of eventsOf(read)) {
      if (!fromStart && !isAfter(position, from)) continue;
      count += 1;
      next = positionOf(event);
      if (!isSystemEvent(event)) events.push(event);
    }
    return { events, next, end: count < maxCount };
  };
