import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  DeadlineExceededError,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { appendChained, hashOf } from './eventstoredb-chained-append.js';
import { positionOf, type EventStore, type LogPosition, type RecordedEvent } from './event-store.js';
import { WrongExpectedRevisionError } from './wrong-expected-revision-error.js';
import { DomainError } from '../../domain/domain-error.js';

/** Device, zone and catalog record writes check their rules in the append's PostgreSQL transaction. */
const recordsNeedPostgres = () =>
  new DomainError('dependency_unavailable', 'this write checks its rules inside a PostgreSQL transaction, which EVENT_STORE=eventstoredb does not offer: device, zone and catalog records need EVENT_STORE=postgres');

/** A server that cannot be reached answers like a database that cannot: 503, try again (contract §12). */
export function unreachableAsUnavailable(error: unknown): unknown {
  if (error instanceof UnavailableError || error instanceof DeadlineExceededError) return new DomainError('dependency_unavailable', `EventStoreDB is unavailable: ${error.message}`);
  return error;
}

type EsdbRecorded = NonNullable<ResolvedEvent['event']>;

/** ESDB's $all position (commit, prepare) carried in the port's LogPosition fields. */
export const toLogPosition = (position: { commit: bigint; prepare: bigint }): LogPosition => ({
  transactionId: position.commit.toString(),
  globalPosition: Number(position.prepare),
});

export function toRecorded(event: EsdbRecorded): RecordedEvent {
  const { transactionId, globalPosition } = toLogPosition(event.position ?? { commit: -1n, prepare: -1n });
  return {
    id: event.id,
    type: event.type,
    data: (event.data ?? {}) as Record<string, unknown>,
    metadata: (event.metadata ?? {}) as Record<string, unknown>,
    streamId: event.streamId,
    streamRevision: Number(event.revision),
    globalPosition,
    transactionId,
    recordedAt: event.created,
    hash: hashOf(event.metadata),
  };
}

async function readStreamEvents(read: AsyncIterable<ResolvedEvent>): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  try {
    for await (const resolved of read) {
      if (resolved.event) events.push(toRecorded(resolved.event));
    }
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw unreachableAsUnavailable(error);
  }
  return events;
}

const isStart = (p: LogPosition) => p.transactionId === '0' && p.globalPosition === 0;
const samePosition = (e: RecordedEvent, p: LogPosition) => e.transactionId === p.transactionId && e.globalPosition === p.globalPosition;

/**
 * The event store port on EventStoreDB. Its appends are not PostgreSQL transactions, so inline
 * projections are refused: with this store, read models follow the log through a subscription.
 */
export function createEventStoreDbEventStore<Trx = unknown>(client: EventStoreDBClient): EventStore<Trx> {
  const readLastEvent = async (streamId: string) => {
    const [last] = await readStreamEvents(client.readStream(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1n }));
    return last ?? null;
  };
  return {
    async appendToStream(streamId, events, expectedRevision, options = {}) {
      if (events.length === 0) throw new Error('appendToStream needs at least one event');
      if (options.inTransaction) throw recordsNeedPostgres();
      const prepared = events.map((e) => ({ ...e, id: e.id ?? randomUUID(), metadata: e.metadata ?? {} }));
      try {
        const { result, events: chained } = await appendChained(client, streamId, prepared, expectedRevision);
        const last = Number(result.nextExpectedRevision);
        const position = toLogPosition(result.position ?? { commit: -1n, prepare: -1n });
        const recordedAt = new Date();
        return {
          nextExpectedRevision: last,
          events: chained.map((e, i) => ({ ...e, streamId, streamRevision: last - prepared.length + 1 + i, ...position, recordedAt })),
        };
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          const actual = error.actualVersion === NO_STREAM || error.actualVersion === undefined ? null : Number(error.actualVersion);
          throw new WrongExpectedRevisionError(streamId, expectedRevision, actual);
        }
        throw unreachableAsUnavailable(error);
      }
    },

    readStream(streamId, options = {}) {
      return readStreamEvents(
        client.readStream(streamId, {
          fromRevision: BigInt(options.fromRevision ?? 0),
          direction: FORWARDS,
          ...(options.maxCount !== undefined ? { maxCount: BigInt(options.maxCount) } : {}),
        }),
      );
    },

    async readStreamRevision(streamId) {
      return (await readLastEvent(streamId))?.streamRevision ?? null;
    },

    readLastEvent,

    async readLogHead() {
      // Backwards from the end, past the system events at the head of `$all` (statistics, settings).
      const pageSize = 64;
      let from: LogPosition | undefined;
      for (;;) {
        const fromPosition = from ? { commit: BigInt(from.transactionId), prepare: BigInt(from.globalPosition) } : END;
        const page = await readStreamEvents(client.readAll({ fromPosition, direction: BACKWARDS, maxCount: BigInt(pageSize) }));
        const at = from;
        const older = at ? page.filter((e) => !samePosition(e, at)) : page;
        const last = older.find((e) => !e.type.startsWith('$'));
        if (last) return positionOf(last);
        if (page.length < pageSize || older.length === 0) return null;
        from = positionOf(older.at(-1)!);
      }
    },

    async readAll({ after, maxCount }) {
      // $all also holds system events; they are skipped here, and a page made only of them is
      // read past instead of answered empty, so a follower never stalls behind them.
      let from = after;
      for (;;) {
        const fromPosition = isStart(from) ? START : { commit: BigInt(from.transactionId), prepare: BigInt(from.globalPosition) };
        const raw: RecordedEvent[] = [];
        try {
          for await (const resolved of client.readAll({ fromPosition, direction: FORWARDS, maxCount: BigInt(maxCount + 1) })) {
            if (resolved.event) raw.push(toRecorded(resolved.event));
          }
        } catch (error) {
          throw unreachableAsUnavailable(error);
        }
        const fresh = isStart(from) ? raw : raw.filter((e) => !samePosition(e, from));
        const events = fresh.filter((e) => !e.type.startsWith('$')).slice(0, maxCount);
        const last = fresh.at(-1);
        if (events.length > 0 || raw.length <= maxCount || !last) return events;
        from = { transactionId: last.transactionId, globalPosition: last.globalPosition };
      }
    },
  };
}
