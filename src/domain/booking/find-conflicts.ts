import { Temporal } from 'temporal-polyfill';
import { DomainError, type BookingConflict } from '../domain-error.js';
import { activeStatuses, type HeldBooking } from './booking.js';
import { instantOf } from './booking-time.js';
import { occupiedMsOf, type OccupiedRange } from './occupied-range.js';

/** An active booking (series parents aside) other than `exceptId` whose occupied range shares time with [fromMs, toMs). */
function isInTheWay(b: HeldBooking, fromMs: number, toMs: number, exceptId: string | undefined): boolean {
  if (b.id === exceptId || b.isSeriesParent || !activeStatuses.includes(b.status)) return false;
  const held = occupiedMsOf(b);
  return held.startMs < toMs && held.endMs > fromMs;
}

/**
 * Every active booking (series parents aside) whose occupied range shares time with `occupied`
 * (the new booking's, buffers included), earliest first. Conflicts are told with their own times.
 */
export function findConflicts(bookings: readonly HeldBooking[], occupied: OccupiedRange, exceptId?: string): BookingConflict[] {
  const from = occupied.start.epochMilliseconds;
  const to = occupied.end.epochMilliseconds;
  return bookings
    .filter((b) => isInTheWay(b, from, to, exceptId))
    .sort((a, b) => Temporal.Instant.compare(instantOf(a.startTime), instantOf(b.startTime)) || a.id.localeCompare(b.id))
    .map((b) => ({ bookingId: b.id, startTime: b.startTime, endTime: b.endTime }));
}

/** Whether findConflicts would find any, in epoch numbers: what a verdict without its refusal needs. */
export function hasConflict(bookings: readonly HeldBooking[], fromMs: number, toMs: number): boolean {
  return bookings.some((b) => isInTheWay(b, fromMs, toMs, undefined));
}

/** The 409 of the bookings in the way, or null when there are none. */
export function conflictRefusal(conflicts: BookingConflict[]): DomainError | null {
  return conflicts.length === 0 ? null : new DomainError('booking_conflict', `Booking conflicts with ${conflicts.length} existing reservation(s)`, { conflicts });
}

export function assertNoConflicts(conflicts: BookingConflict[]): void {
  const refusal = conflictRefusal(conflicts);
  if (refusal) throw refusal;
}
