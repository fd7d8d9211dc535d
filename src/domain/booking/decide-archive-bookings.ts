import type { Temporal } from 'temporal-polyfill';
import { utcTextOfEpochMs } from './booking-time.js';
import type { Booking, BookingStatus } from './booking.js';
import type { BookingArchived } from './booking-archived.js';

/**
 * Only bookings that are over for good are archived. A pending or confirmed booking whose end has
 * passed is still the process manager's to complete, expire or mark as a no-show; it is archived
 * by a later run once it has reached one of these.
 */
export const archivableStatuses: readonly BookingStatus[] = ['cancelled', 'completed', 'no_show'];

/**
 * The bookings ended before `before` are archived, but never one whose end has not passed yet: a
 * `before` in the future archives only what has ended by `now` (a booking checked out early is
 * completed but has not ended). The cut-off is the earlier of the two.
 */
export function archiveCutoff(before: Temporal.Instant, now: Temporal.Instant): number {
  return Math.min(before.epochMilliseconds, now.epochMilliseconds);
}

export function isArchivable(booking: Booking, cutoffMs: number): boolean {
  return !booking.archivedAt && archivableStatuses.includes(booking.status) && Date.parse(booking.endTime) < cutoffMs;
}

/** The archive events for the bookings (of one resource stream) that retention may archive at `now`. */
export function decideArchiveBookings(bookings: readonly Booking[], before: Temporal.Instant, now: Temporal.Instant): BookingArchived[] {
  const cutoff = archiveCutoff(before, now);
  const at = utcTextOfEpochMs(now.epochMilliseconds);
  return bookings
    .filter((booking) => isArchivable(booking, cutoff))
    .map((booking) => ({ type: 'BookingArchived', data: { booking: { ...booking, archivedAt: at }, by: 'system', at } }));
}
