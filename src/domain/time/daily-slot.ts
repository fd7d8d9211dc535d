import { Temporal } from 'temporal-polyfill';

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/** The latest instant at `hourUtc`:00 UTC at or before `now`. */
export function latestDailySlot(now: Temporal.Instant, hourUtc: number): Temporal.Instant {
  const ms = now.epochMilliseconds;
  const today = ms - (((ms % dayMs) + dayMs) % dayMs) + hourUtc * hourMs;
  return Temporal.Instant.fromEpochMilliseconds(today <= ms ? today : today - dayMs);
}

/**
 * A daily run is due when none has run since the latest slot: at the slot itself, and at start
 * when the worker was not running then (a last run older than a day always missed a slot).
 */
export function isDailyRunDue(lastRunAt: Temporal.Instant | null, now: Temporal.Instant, hourUtc: number): boolean {
  return lastRunAt === null || Temporal.Instant.compare(lastRunAt, latestDailySlot(now, hourUtc)) < 0;
}

/** Milliseconds from `now` until the next slot after it. */
export function msUntilNextDailySlot(now: Temporal.Instant, hourUtc: number): number {
  return latestDailySlot(now, hourUtc).epochMilliseconds + dayMs - now.epochMilliseconds;
}
