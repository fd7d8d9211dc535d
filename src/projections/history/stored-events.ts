import { sql } from 'kysely';
import type { Executor } from '../../infra/db/database.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.js';
import { resourceStreamId } from '../../domain/resource/resource.js';

/** What history answers are folded from: recorded events with their chain links. */
export type StoredEvent = RecordedEvent & { hash: string };

const columns = sql`global_position as "globalPosition", transaction_id::text as "transactionId", stream_id as "streamId",
  stream_revision as "streamRevision", event_id as id, event_type as type, data, metadata, recorded_at as "recordedAt", hash`;

/** Every event that carries the booking, oldest first (the index events_by_booking answers it). */
export async function readBookingEvents(db: Executor, bookingId: string): Promise<StoredEvent[]> {
  const { rows } = await sql<StoredEvent>`
    select ${columns} from events
    where data ? 'booking' and (data -> 'booking' ->> 'id') = ${bookingId}
    order by global_position`.execute(db);
  return rows;
}

/** Up to `limit` events of the resource's stream after revision `after`. */
export async function readResourceEvents(db: Executor, resourceId: string, after: number, limit: number): Promise<StoredEvent[]> {
  const { rows } = await sql<StoredEvent>`
    select ${columns} from events
    where stream_id = ${resourceStreamId(resourceId)} and stream_revision > ${after}
    order by stream_revision limit ${limit}`.execute(db);
  return rows;
}
