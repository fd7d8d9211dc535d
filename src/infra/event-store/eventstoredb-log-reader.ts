import { BACKWARDS, END, FORWARDS, START, type EventStoreDBClient } from '@eventstore/db-client';
import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import { resourceStreamId } from '../../domain/resource/resource.js';
import type { Executor } from '../db/database.js';
import { maxCounted } from '../metrics/processor-lag.js';
import type { RecordedEvent } from './event-store.js';
import { verifyEventStoreDbChains } from './eventstoredb-chain-verification.js';
import { readPublishedJsonPage, readPublishedPage } from './eventstoredb-published-page.js';
import { eventsOf, isAfter, isSystemEvent } from './eventstoredb-reads.js';
import type { ChainedEvent, EventAsOf, LogReader } from './log-reader.js';

/** An event appended before EventStoreDB events carried their link answers an empty one (verify-log names it). */
const chained = (event: RecordedEvent): ChainedEvent => ({ ...event, hash: event.hash ?? '' });

const recordedBy = (event: RecordedEvent, asOf: Temporal.Instant) => event.recordedAt.getTime() <= asOf.epochMilliseconds;

/**
 * The stream that holds the booking's events: its resource's. The bookable resource comes from the
 * read models (the booking's events cannot be found in EventStoreDB by their data); a booking they
 * do not know yet has no events to answer.
 */
async function bookingStreamOf(db: Executor, bookingId: string): Promise<string | null> {
  const row = await db
    .selectFrom('bookings')
    .select('bookable_resource_id')
    .where('id', '=', bookingId)
    .unionAll(db.selectFrom('bookings_archive').select('bookable_resource_id').where('id', '=', bookingId))
    .executeTakeFirst();
  return row ? resourceStreamId(row.bookable_resource_id) : null;
}

/** How many of the service's events `$all` holds after `position`, counted up to `maxCounted`. */
async function countAfter(client: EventStoreDBClient, position: { commit: bigint; prepare: bigint }): Promise<number> {
  const fromStart = position.commit === 0n && position.prepare === 0n;
  let count = 0;
  const read = client.readAll({ fromPosition: fromStart ? START : position, direction: FORWARDS, maxCount: BigInt(maxCounted + 1) });
  for await (const event of eventsOf(read)) {
    if (!isSystemEvent(event) && (fromStart || isAfter(event.position, position))) count += 1;
    if (count === maxCounted) break;
  }
  return count;
}

/**
 * The log as EventStoreDB keeps it. Each event carries its chain link in its metadata (appended by
 * eventstoredb-chained-append.ts); ESDB stamps `created` as it writes, in each stream's order. The
 * processors' checkpoints and the asOf snapshots stay in PostgreSQL `db` with the read models.
 */
export function createEventStoreDbLogReader(client: EventStoreDBClient, db: Executor): LogReader {
  const readStream = (streamId: string, after: number, maxCount?: number) =>
    eventsOf(client.readStream(streamId, { fromRevision: BigInt(after + 1), direction: FORWARDS, ...(maxCount === undefined ? {} : { maxCount: BigInt(maxCount) }) }));

  const readBookingEvents = async (bookingId: string): Promise<ChainedEvent[]> => {
    const streamId = await bookingStreamOf(db, bookingId);
    if (!streamId) return [];
    const events: ChainedEvent[] = [];
    for await (const event of readStream(streamId, -1)) {
      if ((event.data.booking as { id?: unknown } | undefined)?.id === bookingId) events.push(chained(event));
    }
    return events;
  };

  return {
    async readStreamEvents(streamId, after, limit) {
      const events: ChainedEvent[] = [];
      for await (const event of readStream(streamId, after, limit)) events.push(chained(event));
      return events;
    },

    readBookingEvents,

    async readBookingAsOf(bookingId, asOf) {
      const known = (await readBookingEvents(bookingId)).filter((event) => recordedBy(event, asOf));
      return (known.at(-1)?.data.booking as Record<string, unknown> | undefined) ?? null;
    },

    async readStreamAsOf(streamId, after, asOf) {
      const events: EventAsOf[] = [];
      for await (const event of readStream(streamId, after)) {
        // Stamped in the stream's order: every later event was recorded after asOf too.
        if (!recordedBy(event, asOf)) break;
        events.push({ revision: event.streamRevision, recordedUs: event.recordedAt.getTime() * 1000, type: event.type, data: event.data });
      }
      return events;
    },

    readPublished: (read) => readPublishedPage(client, read),
    readPublishedJson: (read) => readPublishedJsonPage(client, read),

    async readHeadPosition() {
      // Backwards from the end, past ESDB's own events at the head of `$all` (statistics, settings).
      for await (const event of eventsOf(client.readAll({ fromPosition: END, direction: BACKWARDS }))) {
        if (!isSystemEvent(event)) return Number(event.position.commit);
      }
      return 0;
    },

    async readProcessorLags() {
      const checkpoints = await db
        .selectFrom('processor_checkpoints')
        .select(['name', sql<string>`transaction_id::text`.as('transaction_id'), 'global_position'])
        .orderBy('name')
        .execute();
      return Promise.all(
        checkpoints.map(async (row) => ({
          name: row.name,
          position: Number(row.global_position),
          lagEvents: await countAfter(client, { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) }),
        })),
      );
    },

    verifyHashChains: (onProgress) => verifyEventStoreDbChains(client, onProgress),
  };
}
