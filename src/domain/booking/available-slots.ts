import { Temporal } from 'temporal-polyfill';
import { openIntervals, type Interval } from '../resource/availability.js';
import type { Resource } from '../resource/resource.js';
import { activeStatuses, type Booking } from './booking.js';
import { instantOf, overlaps } from './booking-time.js';

/** The calendar day `date` of `timeZone` as instants: 23 or 25 hours long on DST change days. */
export function calendarDay(date: Temporal.PlainDate, timeZone: string): Interval {
  return {
    start: date.toZonedDateTime({ timeZone }).toInstant(),
    end: date.add({ days: 1 }).toZonedDateTime({ timeZone }).toInstant(),
  };
}

export type SlotQuery = {
  resource: Resource;
  day: Interval;
  slotMinutes: number;
  /** Bookings of the resource overlapping the day; only active ones block a slot. */
  bookings: readonly Booking[];
  /** now + minNoticeMinutes: no slot starts earlier. */
  earliestStart: Temporal.Instant;
};

/**
 * Slots start at the day's first instant plus multiples of slotMinutes (elapsed time, so a DST day
 * has 46 or 50 half-hour steps), lie wholly inside the operating hours and the day, and overlap no
 * active booking. An inactive resource has none.
 */
export function availableSlots({ resource, day, slotMinutes, bookings, earliestStart }: SlotQuery): Interval[] {
  if (!resource.isActive || resource.removed) return [];
  const open = openIntervals(resource.availability, day.start, day.end);
  const busy = bookings
    .filter((b) => !b.isSeriesParent && activeStatuses.includes(b.status))
    .map((b) => ({ start: instantOf(b.startTime), end: instantOf(b.endTime) }));
  const within = (outer: Interval, start: Temporal.Instant, end: Temporal.Instant) =>
    Temporal.Instant.compare(outer.start, start) <= 0 && Temporal.Instant.compare(end, outer.end) <= 0;
  const slots: Interval[] = [];
  for (let start = day.start; ; start = start.add({ minutes: slotMinutes })) {
    const end = start.add({ minutes: slotMinutes });
    if (Temporal.Instant.compare(end, day.end) > 0) break;
    if (Temporal.Instant.compare(start, earliestStart) < 0) continue;
    if (!open.some((interval) => within(interval, start, end))) continue;
    if (busy.some((b) => overlaps(start, end, b.start, b.end))) continue;
    slots.push({ start, end });
  }
  return slots;
}
