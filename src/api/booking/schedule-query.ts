import { Temporal } from 'temporal-polyfill';
import { activeStatuses, type BookingStatus } from '../../domain/booking/booking.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { invalidRequest } from '../../domain/domain-error.js';
import { canonicalTimeZone } from '../../domain/time/time-zone.js';

const maxRangeDays = 366;

/** What a schedule (live or asOf) and utilization read from their query strings. */
export type ScheduleQuery = {
  from: Temporal.Instant;
  to: Temporal.Instant;
  /** The `tz` asked for, canonical; undefined without one (UTC, times with Z). */
  timeZone: string | undefined;
  /** The `status` filter, active bookings when absent. */
  statuses: readonly BookingStatus[];
};

/** The zone of an answer's times: a canonical IANA name, or undefined for UTC with Z. */
export function answerZone(tz: unknown): string | undefined {
  if (tz === undefined) return undefined;
  const zone = canonicalTimeZone(String(tz));
  if (!zone) throw invalidRequest(`unknown time zone "${String(tz)}"`, '/query/tz');
  return zone;
}

/** from, to, tz and status of a range query: to after from, at most 366 days apart, a known zone (400 otherwise). */
export function parseScheduleQuery(query: { from?: unknown; to?: unknown; tz?: unknown; status?: unknown }): ScheduleQuery {
  const from = parseClientInstant(String(query.from), '/query/from');
  const to = parseClientInstant(String(query.to), '/query/to');
  const timeZone = answerZone(query.tz);
  if (Temporal.Instant.compare(to, from) <= 0) throw invalidRequest('to must be after from', '/query/to');
  if (Temporal.Instant.compare(to, from.add({ hours: maxRangeDays * 24 })) > 0) {
    throw invalidRequest(`the range may span at most ${maxRangeDays} days`, '/query/to');
  }
  const statuses = query.status === undefined ? activeStatuses : ([] as BookingStatus[]).concat(query.status as BookingStatus | BookingStatus[]);
  return { from, to, timeZone, statuses };
}
