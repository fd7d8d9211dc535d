import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../src/domain/access/principal.js';
import type { BookingEvent } from '../../src/domain/booking/booking-events.js';
import { decideCancelBooking } from '../../src/domain/booking/decide-cancel-booking.js';
import { decideCheckInBooking } from '../../src/domain/booking/decide-check-in-booking.js';
import { decideConfirmBooking } from '../../src/domain/booking/decide-confirm-booking.js';
import { decideCreateBooking } from '../../src/domain/booking/decide-create-booking.js';
import { decideCompletion, decideNoShow, decideReminder } from '../../src/domain/booking/decide-system-moves.js';
import { decideRegister } from '../../src/domain/resource/decide-resource.js';
import { resourceStreamId, type Resource } from '../../src/domain/resource/resource.js';
import type { Database } from '../../src/infra/db/database.js';
import type { NewEvent } from '../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { projectors } from '../../src/projections/projectors.js';
import { findResource } from '../../src/projections/resource/resource-queries.js';

/** How many resources a long log spreads its bookings over. */
export const longLogResources = 300;

/** Bookings of one resource start this far apart, back in time from the log's end. */
export const longLogBookingGapMs = 2 * 3_600_000;

const hour = 3_600_000;
const day = 24 * hour;
const admin: Principal = { sub: 'scale-admin', workspace: null, level: 1, groups: [], email: null };
const bookerOf = (resource: Resource, i: number): Principal => ({
  sub: `user-${i % 80}`,
  workspace: resource.workspace,
  level: 4,
  groups: [],
  email: `user-${i % 80}@example.com`,
});
const at = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);

type TimedEvent = { atMs: number; event: NewEvent };

/**
 * One booking's life, each move at the time it is made: pending, then confirmed (a third of them
 * reminded) and checked in and completed, or completed without check-in, or a no-show; or cancelled.
 */
function bookingLife(resource: Resource, i: number, startMs: number): TimedEvent[] {
  const booker = bookerOf(resource, i);
  const start = at(startMs);
  const createdAt = startMs - 48 * hour;
  const createdEvent = decideCreateBooking(
    { id: randomUUID(), title: `Scale ${i}`, startTime: start, endTime: start.add({ hours: 1 }) },
    { resource, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] },
    booker,
    at(createdAt),
  );
  const life: { atMs: number; event: BookingEvent }[] = [{ atMs: createdAt, event: createdEvent }];
  let booking = createdEvent.data.booking;
  const state = () => ({ booking, resource });
  const add = (atMs: number, event: BookingEvent) => {
    life.push({ atMs, event });
    booking = event.data.booking;
  };
  if (i % 8 === 7) {
    add(startMs - 24 * hour, decideCancelBooking(state(), admin, at(startMs - 24 * hour), 'plans changed'));
  } else {
    add(startMs - 40 * hour, decideConfirmBooking(state(), admin, at(startMs - 40 * hour)));
    if (i % 3 === 0) for (const reminded of decideReminder(booking, at(startMs - 10 * 60_000), 15)) add(startMs - 10 * 60_000, reminded);
    if (i % 8 === 6) {
      for (const noShow of decideNoShow(booking, resource, at(startMs + hour))) add(startMs + hour, noShow);
    } else {
      if (i % 4 !== 2) add(startMs + 60_000, decideCheckInBooking(state(), booker, at(startMs + 60_000)));
      for (const completed of decideCompletion(booking, at(startMs + hour))) add(startMs + hour, completed);
    }
  }
  return life.map(({ atMs, event }) => ({ atMs, event: event as NewEvent }));
}

/**
 * Appends about `total` events through the store's own append path, read models projected in each
 * append: `longLogResources` resources, bookings `longLogBookingGapMs` apart back in time from
 * `endMs`. Each move is appended on the day it is made, every resource's moves of a day in one
 * append, so that the log interleaves the streams as a workspace's does: a booking's moves lie
 * days apart in the log, between other resources' events. Answers how many bookings it made.
 */
export async function buildLongLog(db: Database, total: number, endMs: number): Promise<{ bookings: number }> {
  const store = createPostgresEventStore(db, { projections: projectors });
  const workspace = randomUUID();
  const perResource = Math.ceil(total / longLogResources);
  // About 3.8 events per booking (the lives above), one registration per resource.
  const count = Math.floor((perResource - 1) / 3.8);
  const firstMs = endMs - (count + 1) * longLogBookingGapMs - 3 * day;
  const streams: { id: string; revision: number; byDay: Map<number, NewEvent[]> }[] = [];
  const register = async (r: number) => {
    const id = randomUUID();
    const registered = decideRegister(
      { id, workspace, resourceType: 'zone', resourceId: `scale-${r}`, resourceName: `Scale ${r}`, bookingPolicy: { maxAdvanceDays: 3650, autoConfirm: false } },
      null,
      admin,
      at(firstMs),
    );
    const revision = (await store.appendToStream(resourceStreamId(id), [registered], 'no_stream')).nextExpectedRevision;
    const resource = (await findResource(db, id))!;
    const timed: TimedEvent[] = [];
    for (let i = count; i > 0; i--) timed.push(...bookingLife(resource, r * 1000 + i, endMs - i * longLogBookingGapMs));
    timed.sort((a, b) => a.atMs - b.atMs);
    const byDay = new Map<number, NewEvent[]>();
    for (const { atMs, event } of timed) {
      const d = Math.floor(atMs / day);
      byDay.set(d, [...(byDay.get(d) ?? []), event]);
    }
    streams[r] = { id: resourceStreamId(id), revision, byDay };
  };
  await inParallel(longLogResources, register);
  for (let d = Math.floor(firstMs / day); d <= Math.floor(endMs / day) + 1; d++) {
    await inParallel(longLogResources, async (r) => {
      const stream = streams[r]!;
      const events = stream.byDay.get(d);
      if (events) stream.revision = (await store.appendToStream(stream.id, events, stream.revision)).nextExpectedRevision;
    });
  }
  return { bookings: count * longLogResources };
}

/** Runs `work(0 … n-1)` four at a time. */
async function inParallel(n: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < n) await work(next++);
    }),
  );
}
