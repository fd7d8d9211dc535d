import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../src/domain/access/principal.js';
import type { Booking } from '../src/domain/booking/booking.js';
import type { BookingEvent } from '../src/domain/booking/booking-events.js';
import { decideCreateBooking } from '../src/domain/booking/decide-create-booking.js';
import { decideCompletion } from '../src/domain/booking/decide-system-moves.js';
import { decideRegister } from '../src/domain/resource/decide-resource.js';
import { resourceStreamId, type Resource } from '../src/domain/resource/resource.js';
import type { Database } from '../src/infra/db/database.js';
import type { Transaction } from 'kysely';
import type { DB } from '../src/infra/db/schema.js';
import type { EventStore, InTransaction, NewEvent } from '../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../src/infra/event-store/postgres-event-store.js';
import { bookingToRow } from '../src/projections/booking/booking-row.js';
import { findResource } from '../src/projections/resource/resource-queries.js';

export type BenchResource = { id: string; zoneId: string };

export type BenchData = {
  workspace: string;
  /** Resources the "distinct" creates spread over. */
  spread: BenchResource[];
  /** One resource all "contending" creates go to. */
  contended: BenchResource;
  /** A resource with `busyBookings` confirmed bookings in the 30 days from `firstDay`. */
  busy: BenchResource & { bookingIds: string[]; firstDay: Temporal.PlainDate };
  /** A resource whose stream holds `historyEvents` events, and one holding only its registration. */
  history: BenchResource;
  fresh: BenchResource;
  /** Rooms (`freeBusyRooms` of them) with `roomBookings` half-hour bookings each in the 7 days from `busy.firstDay`: CalDAV free/busy. */
  rooms: BenchResource[];
};

type Store = EventStore<Transaction<DB>>;

const hour = 3_600_000;
const system: Principal = { sub: 'bench-seed', workspace: null, level: 1, groups: [], email: null };

async function register(db: Database, store: Store, workspace: string, zoneId: string, now: Temporal.Instant): Promise<Resource> {
  const id = randomUUID();
  const event = decideRegister(
    { id, workspace, resourceType: 'zone', resourceId: zoneId, resourceName: zoneId, bookingPolicy: { maxAdvanceDays: 3650 } },
    null,
    system,
    now,
  );
  await store.appendToStream(resourceStreamId(id), [event], 'no_stream');
  return (await findResource(db, id))!;
}

function created(resource: Resource, startMs: number, minutes: number, booker: string, now: Temporal.Instant): Booking {
  const actor: Principal = { sub: booker, workspace: resource.workspace, level: 4, groups: [], email: `${booker}@example.com` };
  const start = Temporal.Instant.fromEpochMilliseconds(startMs);
  const event = decideCreateBooking(
    { id: randomUUID(), title: 'Seeded', startTime: start, endTime: start.add({ milliseconds: Math.round(minutes * 60_000) }) },
    { resource, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] },
    actor,
    now,
  );
  return event.data.booking;
}

/** Appends in batches on one stream, each batch through the given event store (and its projections). */
async function appendInBatches(store: Store, streamId: string, events: NewEvent[], batch: number, inTransaction?: InTransaction<Transaction<DB>>): Promise<void> {
  let revision = 0; // the registration
  for (let i = 0; i < events.length; i += batch) {
    const result = await store.appendToStream(streamId, events.slice(i, i + batch), revision, { inTransaction });
    revision = result.nextExpectedRevision;
  }
}

/**
 * History seeding in bulk: the bookings read model gets each booking's last state of the batch in
 * one statement, as the per-event projection would leave it (completed bookings have no timers).
 */
export const bulkBookingsProjection: InTransaction<Transaction<DB>> = async (trx, events) => {
  const latest = new Map<string, Booking>();
  for (const event of events) {
    const { booking } = event.data as BookingEvent['data'];
    latest.set(booking.id, booking);
  }
  const rows = [...latest.values()].map(bookingToRow);
  for (let i = 0; i < rows.length; i += 1000) await trx.insertInto('bookings').values(rows.slice(i, i + 1000)).execute();
};

export async function seedBenchData(
  db: Database,
  store: Store,
  options: { spreadResources: number; busyBookings: number; historyEvents: number; freeBusyRooms?: number; roomBookings?: number; workspace?: string },
): Promise<BenchData> {
  const workspace = options.workspace ?? randomUUID();
  const now = Temporal.Now.instant();
  const spread: Resource[] = [];
  for (let i = 0; i < options.spreadResources; i++) spread.push(await register(db, store, workspace, `zone-spread-${i}`, now));
  const contended = await register(db, store, workspace, 'zone-contended', now);
  const fresh = await register(db, store, workspace, 'zone-fresh', now);

  // A busy room: its bookings packed into 30 days from tomorrow, 06:00–22:00 UTC, a tenth of the
  // way between neighbours left free (3,000 bookings: 100 a day of 8.6 minutes, 9.6 apart).
  const busy = await register(db, store, workspace, 'zone-busy', now);
  const firstDay = now.toZonedDateTimeISO('UTC').toPlainDate().add({ days: 1 });
  const firstDayMs = firstDay.toZonedDateTime('UTC').epochMilliseconds;
  const perDay = Math.ceil(options.busyBookings / 30);
  const spacingMs = Math.floor((16 * hour) / perDay / 1000) * 1000;
  const busyBookings = Array.from({ length: options.busyBookings }, (_, i) => {
    const startMs = firstDayMs + Math.floor(i / perDay) * 24 * hour + 6 * hour + (i % perDay) * spacingMs;
    return created(busy, startMs, (spacingMs * 0.9) / 60_000, `user-${i % 50}`, now);
  });
  await appendInBatches(store, resourceStreamId(busy.id), busyBookings.map((booking) => ({ type: 'BookingCreated', data: { booking, by: booking.bookerProfileId, at: booking.createdAt } })), 500);

  // Rooms for a week's free/busy: each room's bookings at 08:00–18:00 UTC over the 7 days, a room a stream.
  const rooms: Resource[] = [];
  const roomBookings = options.roomBookings ?? 20;
  for (let r = 0; r < (options.freeBusyRooms ?? 0); r++) {
    const room = await register(db, store, workspace, `zone-room-${r}`, now);
    rooms.push(room);
    const bookings = Array.from({ length: roomBookings }, (_, i) => created(room, firstDayMs + (i % 7) * 24 * hour + 8 * hour + (Math.floor(i / 7) + (r % 3)) * hour, 30, `user-${(r + i) % 50}`, now));
    await appendInBatches(store, resourceStreamId(room.id), bookings.map((booking) => ({ type: 'BookingCreated', data: { booking, by: booking.bookerProfileId, at: booking.createdAt } })), 500);
  }

  // Years of history: half-hour bookings back from yesterday, each created and completed (two events).
  const history = await register(db, store, workspace, 'zone-history', now);
  const yesterdayMs = firstDayMs - 2 * 24 * hour;
  const historyEvents: NewEvent[] = [];
  for (let i = 0; historyEvents.length < options.historyEvents; i++) {
    const startMs = yesterdayMs - (i + 1) * (hour / 2);
    const booking = created(history, startMs, 30, `user-${i % 50}`, Temporal.Instant.fromEpochMilliseconds(startMs - 24 * hour));
    historyEvents.push({ type: 'BookingCreated', data: { booking, by: booking.bookerProfileId, at: booking.createdAt } });
    historyEvents.push(...decideCompletion(booking, Temporal.Instant.fromEpochMilliseconds(startMs + hour / 2)));
  }
  // A store without projections: the bulk statement stands in for them.
  const bulkStore = createPostgresEventStore(db, { projections: [] });
  await appendInBatches(bulkStore, resourceStreamId(history.id), historyEvents.slice(0, options.historyEvents), 2000, bulkBookingsProjection);

  const toBench = (r: Resource): BenchResource => ({ id: r.id, zoneId: r.resourceId });
  return {
    workspace,
    spread: spread.map(toBench),
    contended: toBench(contended),
    fresh: toBench(fresh),
    history: toBench(history),
    rooms: rooms.map(toBench),
    busy: { ...toBench(busy), bookingIds: busyBookings.map((b) => b.id), firstDay },
  };
}
