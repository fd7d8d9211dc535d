import type { BookingConflict } from '../../domain-error.js';
import type { Occurrence } from '../../recurrence/index.js';
import type { HeldBooking } from '../booking.js';
import { findConflicts, oneUnit, unitsFit, type AskedUnits } from '../find-conflicts.js';
import { occupiedMs, occupiedMsOf, occupiedRange, type Buffers } from '../occupied-range.js';
import { availableUnits, unitsHeldBy } from '../unit-use.js';

/** What an occurrence meets: the bookings in its way when its units do not fit (else none), and the fewest free units of its occupied range (contract §21). */
export type OccurrenceOccupancy = { conflicts: BookingConflict[]; availableUnits: number };

/**
 * Each occurrence's occupancy, occupying its times with `buffers` (the resource's in force) and
 * asking `asked` units. Hundreds of occurrences meet hundreds of bookings, so the bookings whose
 * occupied ranges share time with an occurrence's are picked on epoch numbers first; the conflict
 * rule then judges those few.
 */
export function occupancyByOccurrence(
  bookings: readonly HeldBooking[],
  occurrences: readonly Occurrence[],
  buffers: Buffers,
  asked: AskedUnits = oneUnit,
  ignoredIds: ReadonlySet<string> = new Set(),
): OccurrenceOccupancy[] {
  const timed = bookings.filter((b) => !ignoredIds.has(b.id)).map((booking) => ({ booking, ...occupiedMsOf(booking) }));
  return occurrences.map(({ start, end }) => {
    // On epoch numbers: the instants of the occupied range are built only for the conflicts they name.
    const { startMs: from, endMs: to } = occupiedMs(start.epochMilliseconds, end.epochMilliseconds, buffers);
    const near = timed.filter((t) => t.startMs < to && t.endMs > from).map((t) => t.booking);
    if (near.length === 0) return { conflicts: [], availableUnits: asked.capacity };
    const free = availableUnits(unitsHeldBy(near), { startMs: from, endMs: to }, asked.capacity);
    return { conflicts: unitsFit(near, from, to, asked) ? [] : findConflicts(near, occupiedRange(start, end, buffers)), availableUnits: free };
  });
}
