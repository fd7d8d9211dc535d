import { Temporal } from 'temporal-polyfill';
import { openIntervals, type Interval } from '../resource/availability.js';
import type { Resource } from '../resource/resource.js';
import type { Booking } from './booking.js';
import { occupationMet } from '../placement/occupation.js';
import { buffersOf } from './occupied-range.js';
import { unitsHeldBy, type UnitsHeld } from './unit-use.js';

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
 * One sweep in epoch milliseconds: the occupation a booking placed on the day meets is found once
 * (occupationMet, the rule free/busy reads too: a slot meets the largest use of the runs its own
 * times overlap), then slots, open intervals (sorted, disjoint) and runs all move forward together;
 * Temporal only finds the open intervals and makes the answers.
 */
export function availableSlots({ resource, day, slotMinutes, busy, earliestStart, units = 1 }: SlotQuery): FreeSlot[] {
  if (!resource.isActive || resource.removed || units > resource.units) return [];
  const open = openIntervals(resource.availability, day.start, day.end).map((i) => ({ start: i.start.epochMilliseconds, end: i.end.epochMilliseconds }));
  const step = slotMinutes * 60_000;
  const dayStart = day.start.epochMilliseconds;
  const dayEnd = day.end.epochMilliseconds;
  const runs = occupationMet(busy, buffersOf(resource), dayStart, dayEnd);
  const earliest = firstAllowedMs(earliestStart);
  const slots: FreeSlot[] = [];
  let nextOpen = 0;
  // The first run not ended before the current slot starts (those move forward too).
  let firstRun = 0;
  for (let start = dayStart, end = start + step; end <= dayEnd; start = end, end += step) {
    while (firstRun < runs.length && runs[firstRun]!.endMs <= start) firstRun++;
    // An open interval ending before this slot ends can hold no later slot either.
    while (nextOpen < open.length && open[nextOpen]!.end < end) nextOpen++;
    if (start < earliest) continue;
    let used = 0;
    for (let r = firstRun; r < runs.length && runs[r]!.startMs < end; r++) used = Math.max(used, runs[r]!.units);
    const free = Math.max(0, resource.units - used);
    if (free < units) continue;
    const interval = open[nextOpen];
    if (!interval || interval.start > start) continue;
    slots.push({ start: Temporal.Instant.fromEpochMilliseconds(start), end: Temporal.Instant.fromEpochMilliseconds(end), availableUnits: free });
  }
  return slots;
}
