import type { BenchResource } from '../seed-bench-data.js';

const minute = 60_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Half-hour slot k of resource k mod n, counting up from `fromMs`: the slots every generator here hands out. */
export const spreadSlot = (resources: BenchResource[], fromMs: number, k: number) => ({ resource: resources[k % resources.length]!, startMs: fromMs + Math.floor(k / resources.length) * 30 * minute });

/** Creates of distinct half-hour slots: slot k of resource k mod n, counting up from `fromMs`. */
export function creates(resources: BenchResource[], fromMs: number): () => { path: string; body: unknown } {
  let k = 0;
  return () => {
    const { resource, startMs } = spreadSlot(resources, fromMs, k++);
    return {
      path: '/booking/v1/bookings',
      body: { resourceType: 'zone', resourceId: resource.zoneId, title: 'Bench', startTime: iso(startMs), endTime: iso(startMs + 30 * minute) },
    };
  };
}

/** REST series (POST /bookings/bulk) of `rule` in UTC, the first occurrence at slot k as `creates` hands it out. */
export function seriesCreates(resources: BenchResource[], fromMs: number, rule: string): () => { path: string; body: unknown } {
  let k = 0;
  return () => {
    const { resource, startMs } = spreadSlot(resources, fromMs, k++);
    return {
      path: '/booking/v1/bookings/bulk',
      body: { resourceType: 'zone', resourceId: resource.zoneId, title: 'Bench', startTime: iso(startMs), endTime: iso(startMs + 30 * minute), recurrenceRule: rule, timeZone: 'UTC' },
    };
  };
}
