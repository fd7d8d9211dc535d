import { Temporal } from 'temporal-polyfill';
import { DomainError, type BookingConflict } from '../domain-error.js';
import { activeStatuses, type Booking } from './booking.js';
import { instantOf } from './booking-time.js';
import { occupiedMsOf, type OccupiedRange } from './occupied-range.js';

/**
 * Every active booking (series parents aside) whose occupied range shares time with `occupied`
 * (the new booking's, buffers included), earliest first. Conflicts are told with their own times.
 */
export function findConflicts(bookings: readonly Booking[], occupied: OccupiedRange, exceptId?: string): BookingConflict[] {
  const from = occupied.start.epochMilliseconds;
  const to = occupied.end.epochMilliseconds;
  return bookings
    .filter((b) => b.id !== exceptId && !b.isSeriesParent && activeStatuses.includes(b.status))
    .filter((b) => {
      const held = occupiedMsOf(b);
      return held.startMs < to && held.endMs > from;
    })
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
