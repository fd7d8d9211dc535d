import { loadNow } from '../free-search-bench.js';
import { inTurns } from '../in-turns.js';
import type { BenchResource } from '../seed-bench-data.js';
import { fromMeasurement, type Workload } from '../workload.js';
import { creates } from './creates.js';

const minute = 60_000;
const day = 24 * 60 * minute;
const rounds = 2;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Bundles of three distinct resources: bundle k books group k mod ⌊n/3⌋ (resources 3g, 3g+1, 3g+2), then the next half-hour. */
function bundles(resources: BenchResource[], fromMs: number): () => { path: string; body: unknown } {
  const groups = Math.floor(resources.length / 3);
  let k = 0;
  return () => {
    const g = k % groups;
    const startMs = fromMs + Math.floor(k / groups) * 30 * minute;
    k += 1;
    const items = [0, 1, 2].map((i) => ({ resourceType: 'zone', resourceId: resources[3 * g + i]!.zoneId }));
    return { path: '/booking/v1/bundles', body: { title: 'Bench', startTime: iso(startMs), endTime: iso(startMs + 30 * minute), items } };
  };
}

/**
 * Issue 30: a three-item bundle's p95 within 2 × of a single create's, its throughput at least half.
 * Bundles over the spread resources in groups of three (66 groups, so concurrent bundles share no
 * resource) against the create workload's single creates on them, in turns, each round on fresh slots.
 */
export const bundleCreate: Workload = {
  name: 'bundle-create',
  async run(ctx) {
    const fromMs = ctx.futureMs + 6 * 365 * day;
    const loadBefore = loadNow();
    const [single, bundle] = await inTurns(rounds, ctx.seconds, [
      (round) => ctx.http({ name: `create, ${ctx.data.spread.length} resources (in turns)`, method: 'POST', next: creates(ctx.data.spread, fromMs + round * 30 * day), expect: 201 }),
      (round) => ctx.http({ name: 'bundle of 3 resources (in turns)', method: 'POST', next: bundles(ctx.data.spread, fromMs + (rounds + round) * 30 * day), expect: 201 }),
    ]);
    const p95 = bundle!.p95 / single!.p95;
    const share = bundle!.perSecond / single!.perSecond;
    return [
      { ...fromMeasurement(single!), note: `${loadBefore} before, ${loadNow()} after` },
      {
        ...fromMeasurement(bundle!, () => ({ text: 'p95 ≤ 2 × single, throughput ≥ 0.5 × single', met: p95 <= 2 && share >= 0.5 })),
        note: `p95 ${p95.toFixed(2)} ×, throughput ${share.toFixed(2)} × (${(3 * bundle!.perSecond).toFixed(0)} bookings/s)`,
      },
    ];
  },
};
