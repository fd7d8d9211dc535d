import { policyViolation, type DomainError } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';
import { activeStatuses, type HeldBooking } from './booking.js';
import { occupiedMsOf, type OccupiedMs } from './occupied-range.js';

/** Units held over an occupied range, in epoch milliseconds. */
export type UnitsHeld = OccupiedMs & { units: number };

/**
 * The most units held at one instant of [fromMs, toMs) (0 when none is held there). One sweep:
 * the ranges' ends and starts clipped to the window, in time order, ends before starts at one
 * instant since ranges are half-open. The database's `pool_peak_units` (migration 0031) is its twin.
 */
export function peakUnits(held: readonly UnitsHeld[], fromMs: number, toMs: number): number {
  const points: number[][] = [];
  for (const h of held) {
    if (h.startMs < toMs && h.endMs > fromMs) points.push([Math.max(h.startMs, fromMs), h.units], [Math.min(h.endMs, toMs), -h.units]);
  }
  if (points.length === 2) return points[0]![1]!;
  points.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let used = 0;
  let peak = 0;
  for (const point of points) {
    used += point[1]!;
    if (used > peak) peak = used;
  }
  return peak;
}

/** The units the active bookings among `bookings` (series parents aside, `exceptId` aside) hold over their occupied ranges. */
export function unitsHeldBy(bookings: readonly HeldBooking[], exceptId?: string): UnitsHeld[] {
  const held: UnitsHeld[] = [];
  for (const b of bookings) {
    if (b.id !== exceptId && !b.isSeriesParent && activeStatuses.includes(b.status)) held.push({ ...occupiedMsOf(b), units: b.units });
  }
  return held;
}

/** Contract §21: the fewest free units of `capacity` at any instant of the occupied range, never below 0. */
export function availableUnits(held: readonly UnitsHeld[], occupied: OccupiedMs, capacity: number): number {
  return Math.max(0, capacity - peakUnits(held, occupied.startMs, occupied.endMs));
}

/** A booking takes 1 to 10,000 units (contract §21); its resource must have as many. */
export function unitsRefusal(resource: Resource, units: number): DomainError | null {
  return units > resource.units ? policyViolation('units', `the resource has ${resource.units} unit(s); ${units} asked`) : null;
}

/** A booking placed anew (new times or units) on `resource` is pooled once either it or the resource is: pooled for good. */
export const pooledWhenPlaced = (booking: { pooled: boolean }, resource: Resource): boolean => booking.pooled || resource.units > 1;

/** A stretch of constant use of a pool. */
export type UsageRun = UnitsHeld;

/**
 * Contract §21, a pool's schedule: the maximal runs of constant use inside [fromMs, toMs), with
 * some units in use, in time order. Use follows the occupied ranges (buffers included).
 */
export function usageRuns(held: readonly UnitsHeld[], fromMs: number, toMs: number): UsageRun[] {
  const deltas = new Map<number, number>();
  for (const h of held) {
    if (h.startMs >= toMs || h.endMs <= fromMs) continue;
    const start = Math.max(h.startMs, fromMs);
    const end = Math.min(h.endMs, toMs);
    deltas.set(start, (deltas.get(start) ?? 0) + h.units);
    deltas.set(end, (deltas.get(end) ?? 0) - h.units);
  }
  const runs: UsageRun[] = [];
  let used = 0;
  let since = fromMs;
  for (const at of [...deltas.keys()].sort((a, b) => a - b)) {
    const next = used + deltas.get(at)!;
    if (next === used) continue;
    if (used > 0 && at > since) runs.push({ startMs: since, endMs: at, units: used });
    used = next;
    since = at;
  }
  return runs;
}
