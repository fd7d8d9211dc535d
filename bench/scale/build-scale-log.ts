import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { decideRegister } from '../../src/domain/resource/decide-resource.js';
import { evolveResource } from '../../src/domain/resource/evolve-resource.js';
import { resourceStreamId, type Resource } from '../../src/domain/resource/resource.js';
import type { Database } from '../../src/infra/db/database.js';
import type { NewEvent } from '../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { eventsPerSeries, eventsPerSingleBooking, scaleAdmin, seriesLife, singleLife } from './booking-lives.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
/** Two years of history up to now, and two weeks of bookings ahead. */
const historyDays = 730;
const aheadDays = 14;
/** One resource in 20 holds weekly series only; the others single bookings. */
const seriesRoomEvery = 20;
/** Streams appended in one transaction, and transactions in flight at once. */
const streamsPerTransaction = 100;
const parallelTransactions = 2;
/** The log is written in windows of time, every resource's bookings of the window in turn: at most 25, of about 150 events a room each. */
const windowsOf = (perRoom: number) => Math.min(25, Math.max(1, Math.round(perRoom / 150)));

export type ScaleLog = { workspace: string; resources: number; bookings: number; nowMs: number; firstMs: number };

type Room = {
  resource: Resource;
  revision: number;
  /** Bookings (or series) of the room and the next one to write. */
  count: number;
  next: number;
  /** Added to the booking's index where it picks the booking's moves, so that rooms with few bookings still see them all. */
  offset: number;
  spacingMs: number;
  series: boolean;
};

function registration(workspace: string, r: number, nowMs: number) {
  return decideRegister(
    {
      id: randomUUID(),
      workspace,
      resourceType: 'zone',
      resourceId: `scale-room-${r}`,
      resourceName: `Room ${r}`,
      capacity: 2 + (r % 12),
      bookingPolicy: { maxAdvanceDays: 3650, autoConfirm: false, gracePeriodMinutes: 15 },
    },
    null,
    scaleAdmin,
    Temporal.Instant.fromEpochMilliseconds(nowMs - (historyDays + 30) * day),
  );
}

/**
 * Starts of a room's booking k: single bookings evenly spaced over the two years and two weeks;
 * series in 48 half-hour slots of the day, in turn, so that two series of one slot start at least
 * 7 weeks apart (at most 700 series a room; their occurrences never meet).
 */
function startOf(room: Room, k: number, firstMs: number): number {
  if (!room.series) return firstMs + k * room.spacingMs;
  return firstMs + Math.floor((k * room.spacingMs) / day) * day + (k % 48) * 30 * minute;
}

/** The events of one room's bookings starting before `untilMs`, in order; advances `room.next`. */
function eventsUntil(room: Room, untilMs: number, firstMs: number, nowMs: number): NewEvent[] {
  const events: NewEvent[] = [];
  for (; room.next < room.count; room.next++) {
    const startMs = startOf(room, room.next, firstMs);
    if (startMs >= untilMs) break;
    if (room.series) events.push(...seriesLife(room.resource, room.next, startMs, 25 * minute, nowMs));
    else {
      const lengthMs = Math.min(hour, Math.floor(room.spacingMs / 2 / minute) * minute);
      events.push(...singleLife(room.resource, room.next + room.offset, startMs, lengthMs, Math.floor(room.spacingMs / 4 / minute) * minute, nowMs));
    }
  }
  return events;
}

/**
 * Builds a log of about `events` events in `workspace` through the event store's own append (its
 * claim, revision check and hash chain), no projection in the appends: `resources` rooms registered,
 * then two years of bookings window by window, each transaction appending to 100 streams, two
 * transactions at a time. The read models are left to the rebuild.
 */
export async function buildScaleLog(
  db: Database,
  options: { events: number; resources: number; workspace: string; onProgress?: (events: number) => void },
): Promise<ScaleLog> {
  const store = createPostgresEventStore(db, { projections: [] });
  const nowMs = Date.now();
  const firstMs = Math.floor((nowMs - historyDays * day) / day) * day;
  const spanMs = (historyDays + aheadDays) * day;
  const perRoom = Math.max(0, options.events / options.resources - 1);
  const rooms: Room[] = [];
  let written = 0;
  let bookings = 0;

  const inTransactions = async <T>(items: T[], append: (item: T, appendTo: (streamId: string, events: NewEvent[], expected: number | 'no_stream') => Promise<void>) => void | Promise<void>) => {
    let nextBatch = 0;
    const batches = Math.ceil(items.length / streamsPerTransaction);
    await Promise.all(
      Array.from({ length: parallelTransactions }, async () => {
        for (let b = nextBatch++; b < batches; b = nextBatch++) {
          const batch = items.slice(b * streamsPerTransaction, (b + 1) * streamsPerTransaction);
          let appended = 0;
          await store.appendInOneTransaction!(async (_trx, appendInTransaction) => {
            for (const item of batch) {
              await append(item, async (streamId, events, expected) => {
                const recorded = await appendInTransaction(streamId, events, expected);
                appended += recorded.length;
              });
            }
          });
          written += appended;
          options.onProgress?.(written);
        }
      }),
    );
  };

  const registrations = Array.from({ length: options.resources }, (_, r) => registration(options.workspace, r, nowMs));
  await inTransactions(registrations, async (registered, appendTo) => {
    await appendTo(resourceStreamId(registered.data.id), [registered as NewEvent], 'no_stream');
  });
  registrations.forEach((registered, r) => {
    const series = r % seriesRoomEvery === seriesRoomEvery - 1;
    const count = series ? Math.min(700, Math.round(perRoom / eventsPerSeries)) : Math.round(perRoom / eventsPerSingleBooking);
    rooms.push({ resource: evolveResource(null, registered)!, revision: 0, count, next: 0, offset: r * 7, spacingMs: Math.floor((count > 0 ? spanMs / count : spanMs) / minute) * minute, series });
  });

  const windowMs = Math.ceil(spanMs / windowsOf(perRoom));
  for (let windowEnd = firstMs + windowMs; ; windowEnd += windowMs) {
    await inTransactions(rooms, async (room, appendTo) => {
      const before = room.next;
      const events = eventsUntil(room, windowEnd, firstMs, nowMs);
      if (events.length === 0) return;
      bookings += room.series ? (room.next - before) * 9 : room.next - before;
      await appendTo(resourceStreamId(room.resource.id), events, room.revision);
      room.revision += events.length;
    });
    if (rooms.every((room) => room.next >= room.count)) break;
  }
  return { workspace: options.workspace, resources: options.resources, bookings, nowMs, firstMs };
}
