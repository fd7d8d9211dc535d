import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchContext } from '../workload.js';
import { fromMeasurement, type Workload, type WorkloadResult } from '../workload.js';

const day = 24 * 3_600_000;

/** The 30-day schedule of the busy resource in Europe/Berlin, `shiftMs` later than the first day's midnight. */
function scheduleQuery(ctx: BenchContext, shiftMs = 0): string {
  const from = ctx.data.busy.firstDay.toZonedDateTime('Europe/Berlin').toInstant().add({ milliseconds: shiftMs });
  return `/booking/v1/resources/${ctx.data.busy.id}/schedule?from=${encodeURIComponent(from.toString())}&to=${encodeURIComponent(from.add({ hours: 30 * 24 }).toString())}&tz=Europe/Berlin`;
}

/**
 * Answers from every process of the service (WEB_CONCURRENCY), then a pause: each process checks
 * once per zone that PostgreSQL writes the zone's times as Node does, rendering in Node meanwhile;
 * the measurement is of the steady state. One request would reach one process only.
 */
async function warmZone(ctx: BenchContext): Promise<void> {
  let k = 0;
  await ctx.http({ name: 'warm-up', method: 'GET', next: () => ({ path: scheduleQuery(ctx, -1 - (k++ % 1000)) }), expect: 200, seconds: 1 });
  await sleep(5_000);
}

const aFresh = (m: { perSecond: number; p95: number; p99: number }) => ({ text: '≥ 100/s, p95 < 500 ms, p99 < 1 s', met: m.perSecond >= 100 && m.p95 < 500 && m.p99 < 1000 });

/**
 * Computed afresh: every request asks a range one millisecond later than the one before (the same
 * ~3,000 bookings), so no answer is in the cache and each is rendered by PostgreSQL.
 */
export const scheduleAfresh: Workload = {
  name: 'schedule-afresh',
  async run(ctx) {
    await warmZone(ctx);
    let k = 0;
    const measured = await ctx.httpDroppingBodies({ name: 'schedule, 30 days, computed afresh', method: 'GET', next: () => ({ path: scheduleQuery(ctx, (k++ % day) + 1) }), expect: 200 });
    return [fromMeasurement(measured, () => aFresh(measured))];
  },
};

/**
 * Unchanged: the same schedule again and again, answered from the cache (200 with the body) to a
 * client that accepts gzip as browsers and fetch do (118 KB for the 2.1 MB answer), to one that sends no
 * Accept-Encoding (the whole 1.8 MB each time), and revalidated with the ETag (304).
 */
export const scheduleUnchanged: Workload = {
  name: 'schedule-unchanged',
  async run(ctx) {
    await warmZone(ctx);
    const path = scheduleQuery(ctx);
    const first = await fetch(`${ctx.url}${path}`, { headers: { authorization: `Bearer ${ctx.token}` } });
    const tag = first.headers.get('etag');
    await first.arrayBuffer();
    const unchanged = (m: { perSecond: number }) => ({ text: '≥ 1,000/s', met: m.perSecond >= 1000 });
    const results: WorkloadResult[] = [];
    // Client threads: one client thread cannot keep up with the service's cached answers.
    const gzipped = await ctx.httpInThreads({ name: 'schedule, 30 days, unchanged (cache hit, gzip)', method: 'GET', path, headers: { 'accept-encoding': 'gzip, deflate, br' }, expect: 200 });
    results.push(fromMeasurement(gzipped, () => unchanged(gzipped)));
    const plain = await ctx.httpInThreads({ name: 'schedule, 30 days, unchanged (cache hit, no Accept-Encoding)', method: 'GET', path, expect: 200 });
    results.push(fromMeasurement(plain));
    if (tag) {
      const revalidated = await ctx.http({ name: 'schedule, 30 days, If-None-Match (304)', method: 'GET', next: () => ({ path }), headers: { 'if-none-match': tag }, expect: 304 });
      results.push(fromMeasurement(revalidated, () => unchanged(revalidated)));
    }
    return results;
  },
};
