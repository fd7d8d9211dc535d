import { Temporal } from 'temporal-polyfill';
import { invalidRequest, type DomainError } from '../domain-error.js';

/** Minutes before startTime from which a booking may be checked in. */
export const checkInOpensMinutesBefore = 15;

/**
 * Milliseconds since the epoch as ISO 8601 UTC, written as Temporal writes an instant (fraction
 * only when there is one, trailing zeros dropped). Hot in every read: Date formats far faster.
 */
export function utcTextOfEpochMs(ms: number): string {
  const iso = new Date(ms).toISOString();
  // Whole seconds, by far the most common case, need no trimming of the fraction.
  if (iso.endsWith('.000Z')) return `${iso.slice(0, -5)}Z`;
  const fraction = iso.slice(-4, -1).replace(/0+$/, '');
  return `${iso.slice(0, -5)}.${fraction}Z`;
}

/** An instant as a booking stores it: UTC with Z, millisecond precision (what the database keeps). */
export function utcText(instant: Temporal.Instant): string {
  return utcTextOfEpochMs(instant.epochMilliseconds);
}

/**
 * The one reading of a client's time, for every route (issue 38): ISO 8601 with an offset or Z,
 * kept to the millisecond. Null for any other text — a day its month lacks, year zero, an offset
 * beyond ±24 h — which Temporal refuses with a RangeError and Date would move or accept.
 */
export function clientInstantOrNull(text: string): Temporal.Instant | null {
  try {
    return Temporal.Instant.fromEpochMilliseconds(Temporal.Instant.from(text).epochMilliseconds);
  } catch {
    return null;
  }
}

/** A client's time at `path` (a body field, a query parameter); anything else is a 400 naming it. */
export function parseClientInstant(text: string, path: string): Temporal.Instant {
  const instant = clientInstantOrNull(text);
  if (!instant) throw invalidRequest(`${text} is not an ISO 8601 time with an offset or Z`, path);
  return instant;
}

export const instantOf = (text: string): Temporal.Instant => Temporal.Instant.from(text);

/** [start, end) and [otherStart, otherEnd) share time; touching ends do not. */
export function overlaps(start: Temporal.Instant, end: Temporal.Instant, otherStart: Temporal.Instant, otherEnd: Temporal.Instant): boolean {
  return Temporal.Instant.compare(otherStart, end) < 0 && Temporal.Instant.compare(otherEnd, start) > 0;
}

/**
 * The times a client asked for: end after start, and not in the past. `startChanged` false (a
 * reschedule keeping its start) checks only that the end is still ahead. The first fault, or null.
 */
export function timesRefusal(start: Temporal.Instant, end: Temporal.Instant, now: Temporal.Instant, startChanged = true): DomainError | null {
  if (Temporal.Instant.compare(end, start) <= 0) return invalidRequest('endTime must be after startTime', '/body/endTime');
  if (startChanged && Temporal.Instant.compare(start, now) < 0) return invalidRequest('startTime is in the past', '/body/startTime');
  if (Temporal.Instant.compare(end, now) <= 0) return invalidRequest('endTime is in the past', '/body/endTime');
  return null;
}

/** Refuses what timesRefusal finds. */
export function assertValidTimes(start: Temporal.Instant, end: Temporal.Instant, now: Temporal.Instant, startChanged = true): void {
  const refusal = timesRefusal(start, end, now, startChanged);
  if (refusal) throw refusal;
}
