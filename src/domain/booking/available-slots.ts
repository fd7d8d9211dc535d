import { Temporal } from 'temporal-polyfill';
import { openIntervals, type Interval } from '../resource/availability.js';
import type { Resource } from '../resource/resource.js';
import type { Booking } from './booking.js';
import { buffersOf, occupiedMs } from './occupied-range.js';
import { availableUnits, unitsHeldBy, type UnitsHeld } from './unit-use.js';

/** The calendar day `date` of `timeZone` as instants: 23 or 25 hours long on DST change days. */
export function calendarDay(date: Temporal.PlainDate, timeZone: string): Interval {
  return {
    start: date.toZonedDateTime({ timeZone }).toInstant(),
    end: date.add({ days: 1 }).toZonedDateTime({ timeZone }).toInstant(),
  };
}

/** The occupied range (buffers included) of a booking that holds its time (active, no series parent), in epoch milliseconds, and the units it takes. */
export type BusyTime = UnitsHeld;

/** The occupied ranges of the active bookings among `bookings` (series parents hold none). */
export const busyTimesOf = (bookings: readonly Booking[]): BusyTime[] => unitsHeldBy(bookings);

export type SlotQuery = {
  resource: Resource;
  day: Interval;
  slotMinutes: number;
  /** The occupied ranges of the active bookings of the resource that may reach a slot's occupied range, in any order. */
  busy: readonly BusyTime[];
  /** now + minNoticeMinutes: no slot starts earlier. */
  earliestStart: Temporal.Instant;
  /** The units a booking of the slot would take (contract §21); one when absent. */
  units?: number;
};

/** A free slot and the fewest free units of its occupied range (contract §21). */
export type FreeSlot = Interval & { availableUnits: number };

/** No slot may start before `earliest`: in whole milliseconds, the first millisecond not before it. */
function firstAllowedMs(earliest: Temporal.Instant): number {
  const floor = earliest.epochMilliseconds;
  return BigInt(floor) * 1_000_000n === earliest.epochNanoseconds ? floor : floor + 1;
}

/**
 * Slots start at the day's first instant plus multiples of slotMinutes (elapsed time, so a DST day
 * has 46 or 50 half-hour steps), lie wholly inside the operating hours and the day, and the asked
 * units fit beside the active bookings at every instant of their occupied range (the resource's
 * buffers around them): a slot is listed exactly when a create of it with those units would meet
 * no conflict. An inactive resource has none; units above the resource's leave none (the caller
 * refuses them first, 422 policy units).
 *
 * One sweep in epoch milliseconds: slots, open intervals (sorted, disjoint) and bookings (sorted by
 * start) all move forward together, and a slot counts only the bookings still reaching it;
 * Temporal only finds the open intervals and makes the answers.
 */
export function availableSlots({ resource, day, slotMinutes, busy: held, earliestStart, units = 1 }: SlotQuery): FreeSlot[] {
  if (!resource.isActive || resource.removed || units > resource.units) return [];
  const open = openIntervals(resource.availability, day.start, day.end).map((i) => ({ start: i.start.epochMilliseconds, end: i.end.epochMilliseconds }));
  const busy = [...held].sort((a, b) => a.startMs - b.startMs);
  const step = slotMinutes * 60_000;
  const buffers = buffersOf(resource);
  const dayEnd = day.end.epochMilliseconds;
  const earliest = firstAllowedMs(earliestStart);
  const slots: FreeSlot[] = [];
  let nextOpen = 0;
  let nextBusy = 0;
  // The bookings starting before the current slot's occupied end and not yet ended before an
  // earlier slot's occupied start: the only ones that may reach this slot or a later one.
  let reaching: BusyTime[] = [];
  for (let start = day.start.epochMilliseconds, end = start + step; end <= dayEnd; start = end, end += step) {
    const occupied = occupiedMs(start, end, buffers);
    while (nextBusy < busy.length && busy[nextBusy]!.startMs < occupied.endMs) reaching.push(busy[nextBusy++]!);
    if (reaching.some((b) => b.endMs <= occupied.startMs)) reaching = reaching.filter((b) => b.endMs > occupied.startMs);
    // An open interval ending before this slot ends can hold no later slot either.
    while (nextOpen < open.length && open[nextOpen]!.end < end) nextOpen++;
    if (start < earliest) continue;
    const free = availableUnits(reaching, occupied, resource.units);
    if (free < units) continue;
    const interval = open[nextOpen];
    if (!interval || interval.start > start) continue;
    slots.push({ start: Temporal.Instant.fromEpochMilliseconds(start), end: Temporal.Instant.fromEpochMilliseconds(end), availableUnits: free });
  }
  return slots;
}
