import { Temporal } from 'temporal-polyfill';
import { invalidRequest } from '../domain-error.js';
import { canonicalTimeZone } from '../time/time-zone.js';
import { weekdays, type Availability, type TimeWindow } from './resource.js';

export type Interval = { start: Temporal.Instant; end: Temporal.Instant };

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const wallClock = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Checks the zone and every window; answers the availability with the canonical zone id. */
export function validateAvailability(availability: Availability): Availability {
  const timeZone = canonicalTimeZone(availability.timeZone ?? 'UTC');
  if (!timeZone) throw invalidRequest(`unknown time zone "${availability.timeZone}"`, '/availability/timeZone');
  for (const [day, windows] of Object.entries(availability.hours ?? {})) {
    if (!(weekdays as readonly string[]).includes(day)) throw invalidRequest(`unknown weekday "${day}"`, `/availability/hours/${day}`);
    (windows ?? []).forEach((w: TimeWindow, i) => {
      const path = `/availability/hours/${day}/${i}`;
      if (!wallClock.test(w.start)) throw invalidRequest(`start must be HH:MM, got "${w.start}"`, `${path}/start`);
      if (w.end !== '24:00' && !wallClock.test(w.end)) throw invalidRequest(`end must be HH:MM or 24:00, got "${w.end}"`, `${path}/end`);
      if (minutesOf(w.end) <= minutesOf(w.start)) throw invalidRequest('end must be after start', path);
    });
  }
  return { timeZone, hours: availability.hours ?? {} };
}

function mergeIntervals(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => Temporal.Instant.compare(a.start, b.start));
  const merged: Interval[] = [];
  for (const next of sorted) {
    const last = merged.at(-1);
    if (last && Temporal.Instant.compare(next.start, last.end) <= 0) {
      if (Temporal.Instant.compare(next.end, last.end) > 0) last.end = next.end;
    } else {
      merged.push({ ...next });
    }
  }
  return merged;
}

const later = (a: Temporal.Instant, b: Temporal.Instant) => (Temporal.Instant.compare(a, b) >= 0 ? a : b);
const earlier = (a: Temporal.Instant, b: Temporal.Instant) => (Temporal.Instant.compare(a, b) <= 0 ? a : b);

/**
 * The open intervals of [from, to), merged so that windows meeting at midnight form one interval.
 * Windows are wall-clock times of the availability's zone on each calendar day; a window that
 * DST swallows (02:00–03:00 on a spring-forward day) is empty.
 */
export function openIntervals(availability: Availability | null, from: Temporal.Instant, to: Temporal.Instant): Interval[] {
  if (Temporal.Instant.compare(from, to) >= 0) return [];
  if (!availability) return [{ start: from, end: to }];
  const zone = availability.timeZone;
  const lastDay = to.toZonedDateTimeISO(zone).toPlainDate();
  const intervals: Interval[] = [];
  for (let day = from.toZonedDateTimeISO(zone).toPlainDate().subtract({ days: 1 }); Temporal.PlainDate.compare(day, lastDay) <= 0; day = day.add({ days: 1 })) {
    const windows = availability.hours[weekdays[day.dayOfWeek - 1]!] ?? [];
    for (const w of windows) {
      const start = day.toPlainDateTime(Temporal.PlainTime.from(w.start)).toZonedDateTime(zone, { disambiguation: 'compatible' }).toInstant();
      const end =
        w.end === '24:00'
          ? day.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).toInstant()
          : day.toPlainDateTime(Temporal.PlainTime.from(w.end)).toZonedDateTime(zone, { disambiguation: 'compatible' }).toInstant();
      const clipped = { start: later(start, from), end: earlier(end, to) };
      if (Temporal.Instant.compare(clipped.start, clipped.end) < 0) intervals.push(clipped);
    }
  }
  return mergeIntervals(intervals);
}

/** True when [start, end) lies wholly inside the operating hours. */
export function isWithinAvailability(availability: Availability | null, start: Temporal.Instant, end: Temporal.Instant): boolean {
  const [only, ...rest] = openIntervals(availability, start, end);
  return rest.length === 0 && only !== undefined && only.start.equals(start) && only.end.equals(end);
}
