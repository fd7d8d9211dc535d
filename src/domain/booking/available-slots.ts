import { Temporal } from 'temporal-polyfill';
import { openIntervals, type Interval } from '../resource/availability.js';
import type { Resource } from '../resource/resource.js';
import { activeStatuses, type Booking } from './booking.js';
import { buffersOf, occupiedMs, occupiedMsOf } from './occupied-range.js';

/** The calendar day `date` of `timeZone` as instants: 23 or 25 hours long on DST change days. */
export function calendarDay(date: Temporal.PlainDate, timeZone: string): Interval {
  return {
    start: date.toZonedDateTime({ timeZone }).toInstant(),
    end: date.add({ days: 1 }).toZonedDateTime({ timeZone }).toInstant(),
  };
}

/** The occupied range (buffers included) of a booking that holds its time (active, no series parent), in epoch milliseconds. */
export type BusyTime = { startMs: number; endMs: number };

/** The occupied ranges of the active bookings among `bookings` (series parents hold none). */
export const busyTimesOf = (bookings: readonly Booking[]): BusyTime[] =>
  bookings.filter((b) => !b.isSeriesParent && activeStatuses.includes(b.status)).map(occupiedMsOf);

export type SlotQuery = {
  resource: Resource;
  day: Interval;
  slotMinutes: number;
  /** The occupied ranges of the active bookings of the resource that may reach a slot's occupied range, in any order. */
  busy: readonly BusyTime[];
  /** now + minNoticeMinutes: no slot starts earlier. */
  earliestStart: Temporal.Instant;
};

/** No slot may start before `earliest`: in whole milliseconds, the first millisecond not before it. */
function firstAllowedMs(earliest: Temporal.Instant): number {
  const floor = earliest.epochMilliseconds;
  return BigInt(floor) * 1_000_000n === earliest.epochNanoseconds ? floor : floor + 1;
}

/**
 * Slots start at the day's first instant plus multiples of slotMinutes (elapsed time, so a DST day
 * has 46 or 50 half-hour steps), lie wholly inside the operating hours and the day, and their
 * occupied range (the resource's buffers around them) overlaps no active booking's occupied range:
 * a slot is listed exactly when a create of it would meet no conflict. An inactive resource has none.
 *
 * One sweep in epoch milliseconds: slots, open intervals (sorted, disjoint) and bookings (sorted by
 * start) all move forward together; Temporal only finds the open intervals and makes the answers.
 */
export function availableSlots({ resource, day, slotMinutes, busy: held, earliestStart }: SlotQuery): Interval[] {
  if (!resource.isActive || resource.removed) return [];
  const open = openIntervals(resource.availability, day.start, day.end).map((i) => ({ start: i.start.epochMilliseconds, end: i.end.epochMilliseconds }));
  const busy = held.map((b) => ({ start: b.startMs, end: b.endMs })).sort((a, b) => a.start - b.start);
  const step = slotMinutes * 60_000;
  const buffers = buffersOf(resource);
  const dayEnd = day.end.epochMilliseconds;
  const earliest = firstAllowedMs(earliestStart);
  const slots: Interval[] = [];
  let nextOpen = 0;
  let nextBusy = 0;
  // The latest end of the bookings starting before the current slot's occupied end: the slot's
  // occupied range overlaps one iff that end is after the occupied start.
  let busyUntil = -Infinity;
  for (let start = day.start.epochMilliseconds, end = start + step; end <= dayEnd; start = end, end += step) {
    const occupied = occupiedMs(start, end, buffers);
    while (nextBusy < busy.length && busy[nextBusy]!.start < occupied.endMs) busyUntil = Math.max(busyUntil, busy[nextBusy++]!.end);
    // An open interval ending before this slot ends can hold no later slot either.
    while (nextOpen < open.length && open[nextOpen]!.end < end) nextOpen++;
    if (start < earliest || busyUntil > occupied.startMs) continue;
    const interval = open[nextOpen];
    if (!interval || interval.start > start) continue;
    slots.push({ start: Temporal.Instant.fromEpochMilliseconds(start), end: Temporal.Instant.fromEpochMilliseconds(end) });
  }
  return slots;
}
