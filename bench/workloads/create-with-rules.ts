import type { BenchResource } from '../seed-bench-data.js';
import { benchCall } from '../bench-call.js';
import { fromMeasurement, type BenchContext, type Workload } from '../workload.js';

const minute = 60_000;
const day = 24 * 60 * minute;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * Creates of 20-minute bookings in distinct half-hour steps (room for 5-minute buffers each side),
 * slot k on resource k mod n, booked on behalf of one of 100 users (quotas count per booker).
 */
function spacedCreates(resources: BenchResource[], fromMs: number): () => { path: string; body: unknown } {
  let k = 0;
  return () => {
    const resource = resources[k % resources.length]!;
    const startMs = fromMs + Math.floor(k / resources.length) * 30 * minute;
    const booker = `bench-user-${k % 100}`;
    k += 1;
    return {
      path: '/booking/v1/bookings',
      body: { resourceType: 'zone', resourceId: resource.zoneId, title: 'Bench', startTime: iso(startMs), endTime: iso(startMs + 20 * minute), bookerProfileId: booker },
    };
  };
}

async function setBuffers(ctx: BenchContext, minutes: number): Promise<void> {
  for (const resource of ctx.data.spread) {
    await benchCall(ctx, 'PATCH', `/booking/v1/resources/${resource.id}`, { bookingPolicy: { bufferBeforeMinutes: minutes, bufferAfterMinutes: minutes } });
  }
}

/**
 * Issue 21's target: creates with every rule of contract §17 active within 1.15 × of creates
 * without them, same run. Without: the spaced creates on the spread resources. With: 5-minute
 * buffers on each, a workspace-wide blackout in force (on another day), and a quota that applies
 * to every create (its hold: a lock per booker in the append, the usage read again).
 */
export const createWithRules: Workload = {
  name: 'create-with-rules',
  async run(ctx) {
    const base = ctx.futureMs + 4 * 365 * day;
    const without = await ctx.http({ name: 'create, no rules (20 min, on behalf of 100 users)', method: 'POST', next: spacedCreates(ctx.data.spread, base), expect: 201 });
    await setBuffers(ctx, 5);
    const blackout = await benchCall(ctx, 'POST', '/booking/v1/blackouts', { from: iso(base + 400 * day), to: iso(base + 401 * day), reason: 'Bench holiday' });
    let quotaId: string | undefined;
    try {
      const buffered = await ctx.http({ name: 'create, buffers + blackout', method: 'POST', next: spacedCreates(ctx.data.spread, base + 100 * day), expect: 201 });
      quotaId = (await benchCall(ctx, 'POST', '/booking/v1/quotas', { limit: 100000, unit: 'bookings', per: 'day', resourceType: 'zone' })).body.id as string;
      const withRules = await ctx.http({ name: 'create, buffers + blackout + quota', method: 'POST', next: spacedCreates(ctx.data.spread, base + 200 * day), expect: 201 });
      const ratio = (m: { perSecond: number }) => (without.perSecond / m.perSecond).toFixed(2);
      return [
        fromMeasurement(without),
        { ...fromMeasurement(buffered), note: `${ratio(buffered)} × slower than no rules` },
        {
          ...fromMeasurement(withRules, () => ({ text: 'within 1.15 × of no rules', met: without.perSecond / withRules.perSecond <= 1.15 })),
          note: `${ratio(withRules)} × slower in throughput, p95 ${(withRules.p95 / without.p95).toFixed(2)} ×`,
        },
      ];
    } finally {
      if (quotaId) await benchCall(ctx, 'DELETE', `/booking/v1/quotas/${quotaId}`);
      await benchCall(ctx, 'DELETE', `/booking/v1/blackouts/${blackout.body.id}`);
      await setBuffers(ctx, 0);
    }
  },
};
