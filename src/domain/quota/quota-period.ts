import { Temporal } from 'temporal-polyfill';
import type { QuotaPeriod } from './quota.js';

/** A period of a quota: [start, end) as instants. */
export type PeriodRange = { start: Temporal.Instant; end: Temporal.Instant };

/**
 * The calendar day, ISO week (from Monday) or calendar month of `timeZone` that contains `at`.
 * Its bounds are local midnights, so a day is 23 or 25 hours long across a DST change; a midnight
 * that does not exist (a gap at 00:00) is the first instant after it.
 */
export function periodContaining(per: QuotaPeriod, timeZone: string, at: Temporal.Instant): PeriodRange {
  const local = at.toZonedDateTimeISO(timeZone).toPlainDate();
  const first = per === 'day' ? local : per === 'week' ? local.subtract({ days: local.dayOfWeek - 1 }) : local.with({ day: 1 });
  const next = first.add(per === 'day' ? { days: 1 } : per === 'week' ? { weeks: 1 } : { months: 1 });
  const midnight = (date: Temporal.PlainDate) => date.toZonedDateTime({ timeZone }).toInstant();
  return { start: midnight(first), end: midnight(next) };
}
