import { Temporal } from 'temporal-polyfill';
import { DomainError, type BookingConflict } from '../domain-error.js';
import { activeStatuses, type Booking } from './booking.js';
import { instantOf, overlaps } from './booking-time.js';

/** Every active booking (series parents aside) sharing time with [start, end), earliest first. */
export function findConflicts(bookings: readonly Booking[], start: Temporal.Instant, end: Temporal.Instant, exceptId?: string): BookingConflict[] {
  return bookings
    .filter((b) => b.id !== exceptId && !b.isSeriesParent && activeStatuses.includes(b.status))
    .filter((b) => overlaps(start, end, instantOf(b.startTime), instantOf(b.endTime)))
    .sort((a, b) => Temporal.Instant.compare(instantOf(a.startTime), instantOf(b.startTime)) || a.id.localeCompare(b.id))
    .map((b) => ({ bookingId: b.id, startTime: b.startTime, endTime: b.endTime }));
}

/** The 409 of the bookings in the way, or null when there are none. */
export function conflictRefusal(conflicts: BookingConflict[]): DomainError | null {
  return conflicts.length === 0 ? null : new DomainError('booking_conflict', `Booking conflicts with ${conflicts.length} existing reservation(s)`, { conflicts });
}

export function assertNoConflicts(conflicts: BookingConflict[]): void {
  const refusal = conflictRefusal(conflicts);
  if (refusal) throw refusal;
}
