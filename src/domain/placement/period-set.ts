import type { OccupiedMs } from '../booking/occupied-range.js';

/** A stretch of time in epoch milliseconds, half-open. */
export type PeriodMs = OccupiedMs;

/** The union of `periods` clipped to [fromMs, toMs): sorted, disjoint, touching ones joined. */
export function unionWithin(periods: readonly PeriodMs[], fromMs: number, toMs: number): PeriodMs[] {
  const sorted = periods
    .map((p) => ({ startMs: Math.max(p.startMs, fromMs), endMs: Math.min(p.endMs, toMs) }))
    .filter((p) => p.startMs < p.endMs)
    .sort((a, b) => a.startMs - b.startMs);
  const union: PeriodMs[] = [];
  for (const p of sorted) {
    const last = union.at(-1);
    if (last && p.startMs <= last.endMs) last.endMs = Math.max(last.endMs, p.endMs);
    else union.push(p);
  }
  return union;
}

/** What of `periods` lies outside `taken`; both sorted and disjoint. */
export function without(periods: readonly PeriodMs[], taken: readonly PeriodMs[]): PeriodMs[] {
  const rest: PeriodMs[] = [];
  let t = 0;
  for (const p of periods) {
    let start = p.startMs;
    while (t < taken.length && taken[t]!.endMs <= start) t++;
    for (let k = t; k < taken.length && taken[k]!.startMs < p.endMs; k++) {
      if (taken[k]!.startMs > start) rest.push({ startMs: start, endMs: taken[k]!.startMs });
      start = Math.max(start, taken[k]!.endMs);
    }
    if (start < p.endMs) rest.push({ startMs: start, endMs: p.endMs });
  }
  return rest;
}
