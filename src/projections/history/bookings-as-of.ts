import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Booking } from '../../domain/booking/booking.js';
import { evolveBookingsKnown, type BookingsKnown } from '../../domain/booking/bookings-known.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import type { LogReader } from '../../infra/event-store/log-reader.js';

/** A snapshot every this many revisions; one query writes at most one. */
const snapshotEvery = 1_000;

/** The booking as the log knew it at `asOf` (its last event recorded at or before), or null. */
export async function bookingAsOf(log: LogReader, bookingId: string, asOf: Temporal.Instant): Promise<Booking | null> {
  return (await log.readBookingAsOf(bookingId, asOf)) as Booking | null;
}

/**
 * Every booking of the resource as the log knew it at `asOf`; null when the stream had no event by
 * then. Starts from the latest snapshot known by then (kept in PostgreSQL `db` whatever store keeps
 * the log) and folds the events after it; when the fold passes a snapshot boundary with every event
 * in between, it leaves a snapshot there for the next query.
 */
export async function bookingsAsOf(db: Executor, log: LogReader, resourceId: string, asOf: Temporal.Instant): Promise<Booking[] | null> {
  const streamId = resourceStreamId(resourceId);
  const at = asOf.toString();
  const snapshot = (
    await sql<{ revision: number; known_us: number; state: BookingsKnown }>`
      select revision, (extract(epoch from known_at) * 1000000)::bigint as known_us, state from history_snapshots
      where stream_id = ${streamId} and known_at <= ${at}::timestamptz
      order by revision desc limit 1`.execute(db)
  ).rows[0];
  const events = await log.readStreamAsOf(streamId, Number(snapshot?.revision ?? -1), asOf);
  if (!snapshot && events.length === 0) return null;

  let state: BookingsKnown = snapshot?.state ?? {};
  let revision = snapshot ? Number(snapshot.revision) : -1;
  let knownUs = Number(snapshot?.known_us ?? 0);
  // Only a prefix with no event left out (one recorded after asOf) may become a snapshot.
  const gapAt = events.findIndex((event, i) => event.revision !== revision + 1 + i);
  const lastWhole = revision + (gapAt === -1 ? events.length : gapAt);
  const boundary = Math.floor((lastWhole + 1) / snapshotEvery) * snapshotEvery - 1;
  let snapshotToWrite: { knownUs: number; state: string } | null = null;
  for (const event of events) {
    revision = event.revision;
    state = evolveBookingsKnown(state, event);
    knownUs = Math.max(knownUs, event.recordedUs);
    if (revision === boundary) snapshotToWrite = { knownUs, state: JSON.stringify(state) };
  }
  if (snapshotToWrite) {
    await sql`
      insert into history_snapshots (stream_id, revision, known_at, state)
      values (${streamId}, ${boundary}, 'epoch'::timestamptz + ${snapshotToWrite.knownUs} * interval '1 microsecond', ${snapshotToWrite.state}::json)
      on conflict do nothing`.execute(db);
  }
  return Object.values(state);
}
