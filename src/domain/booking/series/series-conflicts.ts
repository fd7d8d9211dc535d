import { Temporal } from 'temporal-polyfill';
import type { BookingConflict } from '../../domain-error.js';
import type { Occurrence } from '../../recurrence/index.js';
import type { HeldBooking } from '../booking.js';
import { findConflicts } from '../find-conflicts.js';
import { occupiedMsOf, occupiedRange, type Buffers } from '../occupied-range.js';

/**
 * The conflicts of each occurrence, occupying its times with `buffers` (the resource's in force).
 * Hundreds of occurrences meet hundreds of bookings, so the bookings whose occupied ranges share
 * time with an occurrence's are picked on epoch numbers first; findConflicts then applies the
 * conflict rule to those few.
 */
export function conflictsByOccurrence(
  bookings: readonly HeldBooking[],
  occurrences: readonly Occurrence[],
  buffers: Buffers,
  ignoredIds: ReadonlySet<string> = new Set(),
): BookingConflict[][] {
  const timed = bookings.filter((b) => !ignoredIds.has(b.id)).map((booking) => ({ booking, ...occupiedMsOf(booking) }));
  return occurrences.map(({ start, end }) => {
    const occupied = occupiedRange(start, end, buffers);
    const from = occupied.start.epochMilliseconds;
    const to = occupied.end.epochMilliseconds;
    const near = timed.filter((t) => t.startMs < to && t.endMs > from).map((t) => t.booking);
    return near.length === 0 ? [] : findConflicts(near, occupied);
  });
}

/** Every existing booking in the way of any occurrence, each listed once, earliest first. */
export function seriesConflicts(bookings: readonly HeldBooking[], occurrences: readonly Occurrence[], buffers: Buffers, ignoredIds: ReadonlySet<string> = new Set()): BookingConflict[] {
  const byId = new Map(conflictsByOccurrence(bookings, occurrences, buffers, ignoredIds).flat().map((conflict) => [conflict.bookingId, conflict]));
  return [...byId.values()].sort(
    (a, b) => Temporal.Instant.compare(Temporal.Instant.from(a.startTime), Temporal.Instant.from(b.startTime)) || a.bookingId.localeCompare(b.bookingId),
  );
}
