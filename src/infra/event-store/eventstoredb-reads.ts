import { StreamNotFoundError, type AllStreamResolvedEvent, type Position, type ResolvedEvent } from '@eventstore/db-client';
import type { RecordedEvent } from './event-store.js';
import { toRecorded, unreachableAsUnavailable } from './eventstoredb-event-store.js';

/** ESDB's own events in `$all` (stream metadata, statistics, settings): no part of the service's log. */
export const isSystemEvent = (event: { type: string; streamId: string }) => event.type.startsWith('$') || event.streamId.startsWith('$');

/** The recorded events of a read, as they come: a missing stream holds none, an unreachable server is a 503. */
export async function* eventsOf(read: AsyncIterable<ResolvedEvent | AllStreamResolvedEvent>): AsyncGenerator<RecordedEvent & { position: Position }> {
  try {
    for await (const resolved of read) {
      const event = resolved.event;
      if (event) yield { ...toRecorded(event), position: event.position ?? { commit: -1n, prepare: -1n } };
    }
  } catch (error) {
    if (error instanceof StreamNotFoundError) return;
    throw unreachableAsUnavailable(error);
  }
}

/** Whether `a` comes after `b` in `$all`. */
export const isAfter = (a: Position, b: Position) => a.commit > b.commit || (a.commit === b.commit && a.prepare > b.prepare);
