import { Temporal } from 'temporal-polyfill';
import { openIntervals } from '../resource/availability.js';
import type { Availability } from '../resource/resource.js';
import type { UtilizationPeriod } from './utilization-periods.js';

/** Milliseconds [start, end) and [otherStart, otherEnd) share; 0 when they do not meet. */
export const overlapMs = (start: number, end: number, otherStart: number, otherEnd: number): number =>
  Math.max(0, Math.min(end, otherEnd) - Math.max(start, otherStart));

type Span = { startMs: number; endMs: number };

/** The parts of the open spans (ascending, disjoint) outside every closed span (any order, may overlap). */
export function withoutClosed(open: readonly Span[], closed: readonly Span[]): Span[] {
  if (closed.length === 0) return [...open];
  const cuts = [...closed].sort((a, b) => a.startMs - b.startMs);
  return open.flatMap((span) => {
    const parts: Span[] = [];
    let from = span.startMs;
    for (const cut of cuts) {
      if (cut.endMs <= from || cut.startMs >= span.endMs) continue;
      if (cut.startMs > from) parts.push({ startMs: from, endMs: cut.startMs });
      from = Math.max(from, cut.endMs);
    }
    if (from < span.endMs) parts.push({ startMs: from, endMs: span.endMs });
    return parts;
  });
}

/**
 * The operating minutes of each period (contiguous, ascending): the hours are laid out once over
 * the whole range with Temporal in the availability's zone (DST days included), then cut at the
 * period boundaries with plain arithmetic. No availability means open around the clock. The
 * `closed` spans (the resource's blackouts, contract §17) are no operating time.
 */
export function openMinutesPerPeriod(availability: Availability | null, periods: readonly UtilizationPeriod[], closed: readonly Span[] = []): number[] {
  const first = periods[0];
  const last = periods.at(-1);
  if (!first || !last) return [];
  const hours = openIntervals(availability, Temporal.Instant.fromEpochMilliseconds(first.startMs), Temporal.Instant.fromEpochMilliseconds(last.endMs)).map((i) => ({
    startMs: i.start.epochMilliseconds,
    endMs: i.end.epochMilliseconds,
  }));
  const open = withoutClosed(hours, closed);
  let from = 0;
  return periods.map((period) => {
    while (from < open.length && open[from]!.endMs <= period.startMs) from += 1;
    let ms = 0;
    for (let i = from; i < open.length && open[i]!.startMs < period.endMs; i++) ms += overlapMs(open[i]!.startMs, open[i]!.endMs, period.startMs, period.endMs);
    return ms / 60_000;
  });
}
