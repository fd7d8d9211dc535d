import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../src/domain/access/principal.js';
import type { Booking } from '../../src/domain/booking/booking.js';
import type { BookingEvent } from '../../src/domain/booking/booking-events.js';
import { decideCancelBooking } from '../../src/domain/booking/decide-cancel-booking.js';
import { decideCheckInBooking } from '../../src/domain/booking/decide-check-in-booking.js';
import { decideConfirmBooking } from '../../src/domain/booking/decide-confirm-booking.js';
import { decideCreateBooking } from '../../src/domain/booking/decide-create-booking.js';
import { decideRescheduleBooking } from '../../src/domain/booking/decide-reschedule-booking.js';
import { decideCompletion, decideExpiry, decideNoShow } from '../../src/domain/booking/decide-system-moves.js';
import { decideCreateSeries } from '../../src/domain/booking/series/decide-create-series.js';
import type { Resource } from '../../src/domain/resource/resource.js';
import type { NewEvent } from '../../src/infra/event-store/event-store.js';

/*
 * The lives of the scale log's bookings, each decided by the domain's own functions as the service
 * would, one after another in a resource's stream. A move dated after `nowMs` is left out: a
 * booking in the future is created (and maybe confirmed) and waits there, live.
 */

const minute = 60_000;
const hour = 60 * minute;
const at = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);

export const scaleAdmin: Principal = { sub: 'scale-admin', workspace: null, level: 1, groups: [], email: null };

function bookerOf(resource: Resource, i: number): Principal {
  const sub = `user-${i % 400}`;
  return { sub, workspace: resource.workspace, level: 4, groups: [], email: `${sub}@example.com` };
}

/** Events per booking of `singleLife`'s mix, on average (in the past). */
export const eventsPerSingleBooking = 71 / 20;

/**
 * Booking `i` of a room, at `startMs` for `lengthMs`, by its index's twentieth: 2 in 20 cancelled
 * by the booker, 1 expired unconfirmed, 1 a no-show, 2 rescheduled (later by `shiftMs`, confirmed
 * again, checked in, completed), 8 checked in and completed, 6 completed without check-in.
 */
export function singleLife(resource: Resource, i: number, startMs: number, lengthMs: number, shiftMs: number, nowMs: number): NewEvent[] {
  const booker = bookerOf(resource, i);
  const start = at(startMs);
  const life: BookingEvent[] = [];
  const created = decideCreateBooking(
    { id: randomUUID(), title: `Meeting ${i}`, startTime: start, endTime: start.add({ milliseconds: lengthMs }) },
    { resource, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] },
    booker,
    at(Math.min(startMs - 48 * hour, nowMs - hour)),
  );
  life.push(created);
  let booking: Booking = created.data.booking;
  const state = () => ({ booking, resource });
  const move = <E extends BookingEvent>(whenMs: number, decide: () => E | E[]): boolean => {
    if (whenMs > nowMs) return false;
    const events = [decide()].flat();
    for (const event of events) {
      life.push(event);
      booking = event.data.booking;
    }
    return true;
  };
  const kind = i % 20;
  let endMs = startMs + lengthMs;
  if (kind < 2) move(startMs - 24 * hour, () => decideCancelBooking(state(), booker, at(startMs - 24 * hour), 'plans changed'));
  else if (kind === 2) move(startMs, () => decideExpiry(booking, resource, at(startMs)));
  else if (move(startMs - 40 * hour, () => decideConfirmBooking(state(), scaleAdmin, at(startMs - 40 * hour)))) {
    if (kind === 3) move(startMs + 20 * minute, () => decideNoShow(booking, resource, at(startMs + 20 * minute)));
    else {
      let checkInMs = startMs + minute;
      if (kind < 6) {
        const [newStart, newEnd] = [at(startMs + shiftMs), at(endMs + shiftMs)];
        move(startMs - 30 * hour, () =>
          decideRescheduleBooking({ startTime: newStart, endTime: newEnd }, { ...state(), overlapping: [], blackouts: [] }, booker, at(startMs - 30 * hour)),
        );
        move(startMs - 20 * hour, () => decideConfirmBooking(state(), scaleAdmin, at(startMs - 20 * hour)));
        checkInMs += shiftMs;
        endMs += shiftMs;
      }
      if (kind < 14) move(checkInMs, () => decideCheckInBooking(state(), booker, at(checkInMs)));
      move(endMs, () => decideCompletion(booking, at(endMs)));
    }
  }
  return life as NewEvent[];
}

/** Events per series of `seriesLife` (in the past). */
export const eventsPerSeries = 24;

/** A weekly series of 8 occurrences from `startMs`: each confirmed and completed, but the fourth, which the booker cancels. */
export function seriesLife(resource: Resource, k: number, startMs: number, lengthMs: number, nowMs: number): NewEvent[] {
  const booker = bookerOf(resource, k);
  const start = at(startMs);
  const created = decideCreateSeries(
    { parentId: randomUUID(), newId: randomUUID, title: `Weekly ${k}`, startTime: start, endTime: start.add({ milliseconds: lengthMs }), recurrenceRule: 'FREQ=WEEKLY;COUNT=8', timeZone: 'UTC' },
    { resource, overlapping: [], activeBookingsOfBooker: 0, blackouts: [] },
    booker,
    at(Math.min(startMs - 72 * hour, nowMs - hour)),
  );
  const life: BookingEvent[] = [...created];
  created.slice(1).forEach((occurrence, n) => {
    let booking = occurrence.data.booking;
    const occurrenceStart = Date.parse(booking.startTime);
    const state = () => ({ booking, resource });
    if (n === 3) {
      if (occurrenceStart - 24 * hour <= nowMs) life.push(decideCancelBooking(state(), booker, at(occurrenceStart - 24 * hour), 'away that week'));
      return;
    }
    if (occurrenceStart - 40 * hour > nowMs) return;
    const confirmed = decideConfirmBooking(state(), scaleAdmin, at(occurrenceStart - 40 * hour));
    booking = confirmed.data.booking;
    life.push(confirmed);
    const endMs = Date.parse(booking.endTime);
    if (endMs <= nowMs) life.push(...decideCompletion(booking, at(endMs)));
  });
  return life as NewEvent[];
}
