import { Temporal } from 'temporal-polyfill';

/**
 * A DTSTART, DTEND, RECURRENCE-ID, EXDATE or RDATE of an event as written (RFC 5545 §3.3.4–5):
 * an absolute UTC time (…Z, or a TZID defined only by the body's VTIMEZONE, resolved at parse), a
 * wall-clock time in an IANA zone, a floating wall-clock time, or a whole day. Floating times and
 * days are placed in the resource's zone (contract §26) by instantOf.
 */
export type EventTime =
  | { kind: 'utc'; instant: Temporal.Instant }
  | { kind: 'zoned'; dateTime: Temporal.PlainDateTime; timeZone: string }
  | { kind: 'floating'; dateTime: Temporal.PlainDateTime }
  | { kind: 'date'; date: Temporal.PlainDate };

/** The instant of a time on a resource in `resourceTimeZone`: a day starts at its first instant there; a wall-clock time in a gap or fold is read as RFC 5545 §3.3.5 says ('compatible'). */
export function instantOf(time: EventTime, resourceTimeZone: string): Temporal.Instant {
  switch (time.kind) {
    case 'utc':
      return time.instant;
    case 'zoned':
      return time.dateTime.toZonedDateTime(time.timeZone, { disambiguation: 'compatible' }).toInstant();
    case 'floating':
      return time.dateTime.toZonedDateTime(resourceTimeZone, { disambiguation: 'compatible' }).toInstant();
    case 'date':
      return time.date.toZonedDateTime({ timeZone: resourceTimeZone }).toInstant();
  }
}

/**
 * DTSTART + DURATION (RFC 5545 §3.3.6): weeks and days are added to the wall clock, hours and
 * less as elapsed time (what Temporal's ZonedDateTime.add does); a floating time has no zone yet, so
 * its whole duration goes on its wall clock. A day takes whole days only (the caller checks).
 */
export function eventTimePlus(start: EventTime, duration: Temporal.Duration): EventTime {
  switch (start.kind) {
    case 'utc':
      return { kind: 'utc', instant: start.instant.toZonedDateTimeISO('UTC').add(duration).toInstant() };
    case 'zoned':
      return { ...start, dateTime: start.dateTime.toZonedDateTime(start.timeZone, { disambiguation: 'compatible' }).add(duration).toPlainDateTime() };
    case 'floating':
      return { kind: 'floating', dateTime: start.dateTime.add(duration) };
    case 'date':
      return { kind: 'date', date: start.date.add(duration) };
  }
}

/** The order of two times of one event, floating times and days read in UTC (enough to tell which comes first of two values of the same kind). */
export const compareEventTimes = (a: EventTime, b: EventTime): number => Temporal.Instant.compare(instantOf(a, 'UTC'), instantOf(b, 'UTC'));
