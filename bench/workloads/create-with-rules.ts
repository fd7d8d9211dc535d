import type { BenchResource } from '../seed-bench-data.js';
import { benchCall } from '../bench-call.js';
import { inTurns } from '../in-turns.js';
import { fromMeasurement, type BenchContext, type Workload } from '../workload.js';

const minute = 60_000;
const day = 24 * 60 * minute;
const rounds = 2;
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

/** The rules of one side: none, buffers and a blackout, or those and a quota; each change made only when the side before had another. */
function rulesSwitch(ctx: BenchContext, base: number) {
  let buffered = false;
  let blackoutId: string | undefined;
  let quotaId: string | undefined;
  const set = async (rules: { buffers: boolean; blackout: boolean; quota: boolean }) => {
    if (rules.buffers !== buffered) await setBuffers(ctx, rules.buffers ? 5 : 0);
    buffered = rules.buffers;
    if (rules.blackout && !blackoutId) blackoutId = (await benchCall(ctx, 'POST', '/booking/v1/blackouts', { from: iso(base + 400 * day), to: iso(base + 401 * day), reason: 'Bench holiday' })).body.id as string;
    if (!rules.blackout && blackoutId) await benchCall(ctx, 'DELETE', `/booking/v1/blackouts/${blackoutId}`);
    if (!rules.blackout) blackoutId = undefined;
    if (rules.quota && !quotaId) quotaId = (await benchCall(ctx, 'POST', '/booking/v1/quotas', { limit: 100000, unit: 'bookings', per: 'day', resourceType: 'zone' })).body.id as string;
    if (!rules.quota && quotaId) await benchCall(ctx, 'DELETE', `/booking/v1/quotas/${quotaId}`);
    if (!rules.quota) quotaId = undefined;
  };
  return { set, clear: () => set({ buffers: false, blackout: false, quota: false }) };
}

/**
 * Issue 21's target: creates with every rule of contract §17 active within 1.15 × of creates
 * without them (issue 39: a create under a quota ≥ 0.87 × in throughput). Without: the spaced
 * creates on the spread resources. With: 5-minute buffers on each, a workspace-wide blackout in
 * force (on another day), and a quota that applies to every create (its hold: a lock per booker in
 * the append, the usage read again). The three sides in turns (none, buffers + blackout, + quota;
 * twice, the rules switched between them, fresh slots each time), so that all meet the same load.
 */
export const createWithRules: Workload = {
  name: 'create-with-rules',
  async run(ctx) {
    const base = ctx.futureMs + 4 * 365 * day;
    const rules = rulesSwitch(ctx, base);
    const side = (name: string, offsetDays: number, set: Parameters<typeof rules.set>[0]) => async (round: number) => {
      await rules.set(set);
      return ctx.http({ name, method: 'POST', next: spacedCreates(ctx.data.spread, base + (offsetDays + 30 * round) * day), expect: 201 });
    };
    try {
      const [without, buffered, withRules] = await inTurns(rounds, ctx.seconds, [
        side('create, no rules (20 min, on behalf of 100 users; in turns)', 0, { buffers: false, blackout: false, quota: false }),
        side('create, buffers + blackout (in turns)', 100, { buffers: true, blackout: true, quota: false }),
        side('create, buffers + blackout + quota (in turns)', 200, { buffers: true, blackout: true, quota: true }),
      ]);
      const ratio = (m: { perSecond: number }) => (without!.perSecond / m.perSecond).toFixed(2);
      return [
        fromMeasurement(without!),
        { ...fromMeasurement(buffered!), note: `${ratio(buffered!)} × slower than no rules` },
        {
          ...fromMeasurement(withRules!, () => ({ text: 'within 1.15 × of no rules', met: without!.perSecond / withRules!.perSecond <= 1.15 })),
          note: `${ratio(withRules!)} × slower in throughput (${(withRules!.perSecond / without!.perSecond).toFixed(2)} × as many), p95 ${(withRules!.p95 / without!.p95).toFixed(2)} ×`,
        },
      ];
    } finally {
      await rules.clear();
    }
  },
};
