import { summarise, type Measurement } from '../measure.js';
import type { BenchResource } from '../seed-bench-data.js';
import { benchCall } from '../bench-call.js';
import { fromMeasurement, type BenchContext, type Workload } from '../workload.js';

const minute = 60_000;
const day = 24 * 60 * minute;
const waitersPerSlot = 5;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** One request of the bench's admin; its answer's body, or an error on any status but `expect`. */
async function call(ctx: BenchContext, method: string, path: string, body: unknown, expect: number): Promise<{ id: string }> {
  const res = await benchCall(ctx, method, path, body);
  if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status}, not ${expect}`);
  return res.body as { id: string };
}

const slot = (resource: BenchResource, startMs: number) => ({ resourceType: 'zone', resourceId: resource.zoneId, title: 'Bench', startTime: iso(startMs), endTime: iso(startMs + 30 * minute) });

/** A booking of the slot, with `waiters` entries on it of as many users (on behalf, as an admin may). */
async function bookedSlot(ctx: BenchContext, resource: BenchResource, startMs: number, waiters: number): Promise<string> {
  const { id } = await call(ctx, 'POST', '/booking/v1/bookings', slot(resource, startMs), 201);
  for (let w = 1; w <= waiters; w++) await call(ctx, 'POST', '/booking/v1/waitlist', { ...slot(resource, startMs), bookerProfileId: `bench-waiter-${w}` }, 201);
  return id;
}

/** Times one cancel, the answer read. */
async function timedCancel(ctx: BenchContext, id: string): Promise<number> {
  const start = performance.now();
  await call(ctx, 'PATCH', `/booking/v1/bookings/${id}/cancel`, {}, 200);
  return performance.now() - start;
}

/**
 * Issue 31's target for contract §23: a cancel of a booking with 5 waiters on its slot (the first
 * promoted in the same append, the other 4 left waiting) within 1.5 × the p95 of a cancel without
 * waiters. One request at a time (the latency of one command, not the server's throughput), the
 * two kinds alternating so that both see the same load; 40 pairs a second of --seconds, on slots of
 * their own on the spread resources, made before the timing starts.
 */
export const waitlistCancel: Workload = {
  name: 'waitlist-cancel',
  async run(ctx) {
    const pairs = 40 * ctx.seconds;
    const base = ctx.futureMs + 5 * 365 * day;
    const plain: string[] = [];
    const waited: string[] = [];
    for (let i = 0; i < pairs; i++) {
      const resource = ctx.data.spread[i % ctx.data.spread.length]!;
      const startMs = base + Math.floor(i / ctx.data.spread.length) * 60 * minute;
      plain.push(await bookedSlot(ctx, resource, startMs, 0));
      waited.push(await bookedSlot(ctx, resource, startMs + 30 * minute, waitersPerSlot));
    }
    const times = { plain: [] as number[], waited: [] as number[] };
    const cpu = process.cpuUsage();
    for (let i = 0; i < pairs; i++) {
      times.plain.push(await timedCancel(ctx, plain[i]!));
      times.waited.push(await timedCancel(ctx, waited[i]!));
    }
    const used = process.cpuUsage(cpu);
    const half = { user: used.user / 2, system: used.system / 2 };
    const without: Measurement = summarise({ name: 'cancel, no waiters (one at a time)', seconds: ctx.seconds }, times.plain, {}, half);
    const withWaiters: Measurement = summarise({ name: `cancel, ${waitersPerSlot} waiters on the slot (one at a time)`, seconds: ctx.seconds }, times.waited, {}, half);
    const ratio = withWaiters.p95 / without.p95;
    return [
      { ...fromMeasurement(without), unit: 'cancels timed', perSecond: pairs },
      {
        ...fromMeasurement(withWaiters, () => ({ text: 'p95 within 1.5 × of no waiters', met: ratio <= 1.5 })),
        unit: 'cancels timed',
        perSecond: pairs,
        note: `p95 ${ratio.toFixed(2)} ×, p50 ${(withWaiters.p50 / without.p50).toFixed(2)} ×`,
      },
    ];
  },
};
