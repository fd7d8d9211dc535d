import { Temporal } from 'temporal-polyfill';
import { openIntervals } from '../resource/availability.js';
import type { Availability } from '../resource/resource.js';
import type { UtilizationPeriod } from './utilization-periods.js';

/** Milliseconds [start, end) and [otherStart, otherEnd) share; 0 when they do not meet. */
export const overlapMs = (start: number, end: number, otherStart: number, otherEnd: number): number =>
  Math.max(0, Math.min(end, otherEnd) - Math.max(start, otherStart));

/**
 * The operating minutes of each period (contiguous, ascending): the hours are laid out once over
 * the whole range with Temporal in the availability's zone (DST days included), then cut at the
 * period boundaries with plain arithmetic. No availability means open around the clock.
 */
export function openMinutesPerPeriod(availability: Availability | null, periods: readonly UtilizationPeriod[]): number[] {
  const first = periods[0];
  const last = periods.at(-1);
  if (!first || !last) return [];
  const open = openIntervals(availability, Temporal.Instant.fromEpochMilliseconds(first.startMs), Temporal.Instant.fromEpochMilliseconds(last.endMs)).map((i) => ({
    startMs: i.start.epochMilliseconds,
    endMs: i.end.epochMilliseconds,
  }));
  let from = 0;
  return periods.map((period) => {
    while (from < open.length && open[from]!.endMs <= period.startMs) from += 1;
    let ms = 0;
    for (let i = from; i < open.length && open[i]!.startMs < period.endMs; i++) ms += overlapMs(open[i]!.startMs, open[i]!.endMs, period.startMs, period.endMs);
    return ms / 60_000;
  });
}
