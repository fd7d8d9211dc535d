import type { Buffers } from '../booking/occupied-range.js';
import { usageRuns, type UnitsHeld, type UsageRun } from '../booking/unit-use.js';

/**
 * The occupation a booking placed with `buffers` meets (contract §17, §21), over [fromMs, toMs):
 * at each instant t, the most units in use at any instant that the occupied range of a booking
 * holding t may reach, [t − before, t + after]. A booking of [s, e) inside the range therefore meets
 * at most the largest value of the runs it overlaps, its own times only: exactly the peak of use
 * over its occupied range, the create's rule (unitsFit) read for every placement at once. Runs
 * of constant value in time order, only where some units are in use.
 *
 * The use is summed once (usageRuns over the reach of the range), then each run of use is widened
 * by the buffers, after earlier and before later, and the widened runs' upper envelope is swept
 * with a monotonic queue: the runs are disjoint and in order, so their widened starts and ends are
 * in order too, and the cost stays linear in the runs.
 */
export function occupationMet(held: readonly UnitsHeld[], buffers: Buffers, fromMs: number, toMs: number): UsageRun[] {
  const beforeMs = buffers.bufferBeforeMinutes * 60_000;
  const afterMs = buffers.bufferAfterMinutes * 60_000;
  const runs = usageRuns(held, fromMs - beforeMs, toMs + afterMs);
  const met: UsageRun[] = [];
  // Indices of the runs covering the current instant, in order, their units strictly decreasing.
  const queue: number[] = [];
  let head = 0;
  let entered = 0;
  let left = 0;
  let value = 0;
  let since = fromMs;
  while (left < runs.length) {
    const nextStart = entered < runs.length ? runs[entered]!.startMs - afterMs : Infinity;
    const at = Math.min(nextStart, runs[left]!.endMs + beforeMs);
    while (left < runs.length && runs[left]!.endMs + beforeMs === at) {
      if (head < queue.length && queue[head] === left) head++;
      left++;
    }
    while (entered < runs.length && runs[entered]!.startMs - afterMs === at) {
      while (queue.length > head && runs[queue.at(-1)!]!.units <= runs[entered]!.units) queue.pop();
      queue.push(entered++);
    }
    const next = head < queue.length ? runs[queue[head]!]!.units : 0;
    if (next === value) continue;
    const start = Math.max(since, fromMs);
    const end = Math.min(at, toMs);
    if (value > 0 && start < end) met.push({ startMs: start, endMs: end, units: value });
    value = next;
    since = at;
  }
  return met;
}
