import type { BenchResource } from '../seed-bench-data.js';

const minute = 60_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Creates of distinct half-hour slots: slot k of resource k mod n, counting up from `fromMs`. */
export function creates(resources: BenchResource[], fromMs: number): () => { path: string; body: unknown } {
  let k = 0;
  return () => {
    const resource = resources[k % resources.length]!;
    const startMs = fromMs + Math.floor(k / resources.length) * 30 * minute;
    k += 1;
    return {
      path: '/booking/v1/bookings',
      body: { resourceType: 'zone', resourceId: resource.zoneId, title: 'Bench', startTime: iso(startMs), endTime: iso(startMs + 30 * minute) },
    };
  };
}
