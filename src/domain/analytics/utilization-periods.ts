import { Temporal } from 'temporal-polyfill';

export type UtilizationGrouping = 'resource' | 'day';

/** A stretch of the asked range that gets its own row: the whole range, or one calendar day of it. */
export type UtilizationPeriod = { day: string | null; startMs: number; endMs: number };

/**
 * The periods of [from, to): the range itself, or each calendar day of `timeZone` it touches, cut
 * to the range. A day runs from one local start of day to the next, so a DST day is 23 or 25 hours.
 */
export function utilizationPeriods(from: Temporal.Instant, to: Temporal.Instant, grouping: UtilizationGrouping, timeZone: string): UtilizationPeriod[] {
  const fromMs = from.epochMilliseconds;
  const toMs = to.epochMilliseconds;
  if (fromMs >= toMs) return [];
  if (grouping === 'resource') return [{ day: null, startMs: fromMs, endMs: toMs }];
  const periods: UtilizationPeriod[] = [];
  let day = from.toZonedDateTimeISO(timeZone).toPlainDate();
  let dayStartMs = day.toZonedDateTime({ timeZone }).epochMilliseconds;
  while (dayStartMs < toMs) {
    const next = day.add({ days: 1 });
    const nextStartMs = next.toZonedDateTime({ timeZone }).epochMilliseconds;
    periods.push({ day: day.toString(), startMs: Math.max(dayStartMs, fromMs), endMs: Math.min(nextStartMs, toMs) });
    day = next;
    dayStartMs = nextStartMs;
  }
  return periods;
}

/** The boundaries of contiguous periods: each start, then the last end (what a bucket search needs). */
export function periodBoundaries(periods: readonly UtilizationPeriod[]): number[] {
  const last = periods.at(-1);
  return last ? [...periods.map((p) => p.startMs), last.endMs] : [];
}
