import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import type { Booking } from '../booking/booking.js';
import type { BookingCancelled } from '../booking/booking-events.js';
import { instantOf, overlaps } from '../booking/booking-time.js';
import { decideCancelBooking } from '../booking/decide-cancel-booking.js';
import type { Resource } from '../resource/resource.js';
import { coversResource, type Blackout } from './blackout.js';

/** The bookings a blackout hits: pending or confirmed, series parents aside, on a covered resource, overlapping it. */
export function affectedBookings(blackout: Blackout, bookings: readonly Booking[]): Booking[] {
  const [from, to] = [instantOf(blackout.from), instantOf(blackout.to)];
  return bookings.filter(
    (b) =>
      (b.status === 'pending' || b.status === 'confirmed') &&
      !b.isSeriesParent &&
      b.workspace === blackout.workspace &&
      coversResource(blackout, b.bookableResourceId) &&
      overlaps(instantOf(b.startTime), instantOf(b.endTime), from, to),
  );
}

/** cancelExisting: each affected booking cancelled as its cancel would (by the actor, with the blackout's reason). */
export function decideBlackoutCancellations(
  blackout: Blackout,
  bookings: readonly Booking[],
  resources: ReadonlyMap<string, Resource>,
  actor: Principal,
  now: Temporal.Instant,
): BookingCancelled[] {
  return affectedBookings(blackout, bookings).map((booking) =>
    decideCancelBooking({ booking, resource: resources.get(booking.bookableResourceId) ?? null }, actor, now, blackout.reason),
  );
}
