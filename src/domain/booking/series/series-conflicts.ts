import { Temporal } from 'temporal-polyfill';
import type { BookingConflict } from '../../domain-error.js';
import type { Occurrence } from '../../recurrence/index.js';
import type { Booking } from '../booking.js';
import { findConflicts } from '../find-conflicts.js';

/**
 * The conflicts of each occurrence. Hundreds of occurrences meet hundreds of bookings, so the
 * bookings sharing time with an occurrence are picked on epoch numbers first; findConflicts then
 * applies the conflict rule to those few.
 */
export function conflictsByOccurrence(bookings: readonly Booking[], occurrences: readonly Occurrence[], ignoredIds: ReadonlySet<string> = new Set()): BookingConflict[][] {
  const timed = bookings
    .filter((b) => !ignoredIds.has(b.id))
    .map((booking) => ({ booking, start: Date.parse(booking.startTime), end: Date.parse(booking.endTime) }));
  return occurrences.map(({ start, end }) => {
    const from = start.epochMilliseconds;
    const to = end.epochMilliseconds;
    const near = timed.filter((t) => t.start < to && t.end > from).map((t) => t.booking);
    return near.length === 0 ? [] : findConflicts(near, start, end);
  });
}

/** Every existing booking in the way of any occurrence, each listed once, earliest first. */
export function seriesConflicts(bookings: readonly Booking[], occurrences: readonly Occurrence[], ignoredIds: ReadonlySet<string> = new Set()): BookingConflict[] {
  const byId = new Map(conflictsByOccurrence(bookings, occurrences, ignoredIds).flat().map((conflict) => [conflict.bookingId, conflict]));
  return [...byId.values()].sort(
    (a, b) => Temporal.Instant.compare(Temporal.Instant.from(a.startTime), Temporal.Instant.from(b.startTime)) || a.bookingId.localeCompare(b.bookingId),
  );
}
