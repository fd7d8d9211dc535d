import { randomUUID } from 'node:crypto';
import { benchCall } from '../bench-call.js';
import { fromMeasurement, type BenchContext, type Workload } from '../workload.js';

const minute = 60_000;
const day = 24 * 60 * minute;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** `count` zones of the device service registered as bookable resources (`extra` on the last one), their zone ids. */
async function registerZones(ctx: BenchContext, prefix: string, count: number, lastExtra: (ids: string[]) => Record<string, unknown> = () => ({})): Promise<string[]> {
  const zoneIds: string[] = [];
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const zoneId = `${prefix}-${i}`;
    await benchCall(ctx, 'POST', '/device/v1/zones', { id: zoneId, name: zoneId, parentZoneId: null, workspace: ctx.data.workspace });
    const extra = i === count - 1 ? lastExtra(ids) : {};
    ids.push((await benchCall(ctx, 'POST', '/booking/v1/resources', { resourceType: 'zone', resourceId: zoneId, bookingPolicy: { maxAdvanceDays: 3650 }, ...extra })).body.id as string);
    zoneIds.push(zoneId);
  }
  return zoneIds;
}

/** Creates of 20-minute bookings, slot k on resource k mod n, every slot in its own half hour. */
function creates(zoneIds: readonly string[], fromMs: number): () => { path: string; body: unknown } {
  let k = 0;
  return () => {
    const zoneId = zoneIds[k % zoneIds.length]!;
    const startMs = fromMs + Math.floor(k / zoneIds.length) * 30 * minute;
    k += 1;
    return { path: '/booking/v1/bookings', body: { resourceType: 'zone', resourceId: zoneId, title: 'Bench', startTime: iso(startMs), endTime: iso(startMs + 20 * minute) } };
  };
}

/**
 * Issue #30's target (contract §22): a create on a part of a whole with 20 parts within 1.2 × of a
 * create on a plain resource. Both kinds round-robin over 20 resources of their own, same run: the
 * part's create also reads its whole's bookings and takes the whole's occupation lock in the append.
 */
export const createOnPart: Workload = {
  name: 'create-on-part',
  async run(ctx) {
    const run = randomUUID().slice(0, 8);
    const plain = await registerZones(ctx, `bench-plain-${run}`, 20);
    const parts = await registerZones(ctx, `bench-part-${run}`, 21, (ids) => ({ parts: ids }));
    const halls = parts.slice(0, 20);
    const base = ctx.futureMs + 5 * 365 * day;
    const onPlain = await ctx.http({ name: 'create, 20 plain resources', method: 'POST', next: creates(plain, base), expect: 201 });
    const onPart = await ctx.http({ name: 'create, the 20 parts of one whole', method: 'POST', next: creates(halls, base), expect: 201 });
    const ratio = onPlain.perSecond / onPart.perSecond;
    return [
      fromMeasurement(onPlain),
      {
        ...fromMeasurement(onPart, () => ({ text: 'within 1.2 × of a plain resource', met: ratio <= 1.2 })),
        note: `${ratio.toFixed(2)} × slower in throughput, p95 ${(onPart.p95 / onPlain.p95).toFixed(2)} ×`,
      },
    ];
  },
};
