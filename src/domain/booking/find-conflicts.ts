import { Temporal } from 'temporal-polyfill';
import { DomainError, type BookingConflict } from '../domain-error.js';
import { activeStatuses, type HeldBooking } from './booking.js';
import { instantOf } from './booking-time.js';
import { occupiedMsOf, type OccupiedRange } from './occupied-range.js';
import { availableUnits, unitsHeldBy } from './unit-use.js';

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

/** The units a new booking asks of a resource that has `capacity` of them (contract §21): 1 of 1 on a room. */
export type AskedUnits = { units: number; capacity: number };

export const oneUnit: AskedUnits = { units: 1, capacity: 1 };

/**
 * The one conflict rule (contract §5, §17, §21): whether `asked.units` fit beside the units the
 * active bookings hold at every instant of [fromMs, toMs), in epoch numbers (what a verdict
 * without its refusal needs). With one unit of one, any booking in the way refuses.
 */
export function unitsFit(bookings: readonly HeldBooking[], fromMs: number, toMs: number, asked: AskedUnits, exceptId?: string): boolean {
  if (asked.capacity === 1) return asked.units <= 1 && !bookings.some((b) => isInTheWay(b, fromMs, toMs, exceptId));
  return asked.units <= availableUnits(unitsHeldBy(bookings, exceptId), { startMs: fromMs, endMs: toMs }, asked.capacity);
}

/** The 409 of the bookings in the way, with the fewest free units where a pool tells them, or null when there are none. */
export function conflictRefusal(conflicts: BookingConflict[], freeUnits?: number): DomainError | null {
  if (conflicts.length === 0) return null;
  return new DomainError('booking_conflict', `Booking conflicts with ${conflicts.length} existing reservation(s)`, freeUnits === undefined ? { conflicts } : { conflicts, availableUnits: freeUnits });
}

/**
 * The 409 of a new booking of `asked` units over `occupied`, or null when they fit: every active
 * booking whose occupied range overlaps it is in `conflicts`, and `availableUnits` tells the
 * fewest free units of the range (contract §21).
 */
export function occupancyRefusal(bookings: readonly HeldBooking[], occupied: OccupiedRange, asked: AskedUnits, exceptId?: string): DomainError | null {
  const fromMs = occupied.start.epochMilliseconds;
  const toMs = occupied.end.epochMilliseconds;
  if (unitsFit(bookings, fromMs, toMs, asked, exceptId)) return null;
  const free = availableUnits(unitsHeldBy(bookings, exceptId), { startMs: fromMs, endMs: toMs }, asked.capacity);
  return conflictRefusal(findConflicts(bookings, occupied, exceptId), free);
}
