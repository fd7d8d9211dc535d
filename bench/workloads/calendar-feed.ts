import { fromMeasurement, type Workload, type WorkloadResult } from '../workload.js';

const atLeast200 = (m: { perSecond: number }) => ({ text: '≥ 200/s', met: m.perSecond >= 200 });

/**
 * Issue 23's target: the ICS feed of the busy resource (3,000 bookings in 30 days, all inside the
 * feed's window) read again unchanged, by a client that revalidates with its ETag (304 after one
 * aggregate of the rows' versions) and by one that does not (the rendered feed from the cache);
 * then rendered afresh once, for scale.
 */
export const calendarFeedUnchanged: Workload = {
  name: 'calendar-feed-unchanged',
  async run(ctx) {
    const path = `/booking/v1/resources/${ctx.data.busy.id}/calendar.ics`;
    const started = performance.now();
    const first = await fetch(`${ctx.url}${path}`, { headers: { authorization: `Bearer ${ctx.token}` } });
    const bytes = (await first.arrayBuffer()).byteLength;
    const renderMs = performance.now() - started;
    const tag = first.headers.get('etag');
    if (first.status !== 200 || !tag) throw new Error(`calendar feed answered ${first.status} without an ETag`);
    const results: WorkloadResult[] = [];
    const revalidated = await ctx.http({ name: 'calendar feed, 3,000 bookings, If-None-Match (304)', method: 'GET', next: () => ({ path }), headers: { 'if-none-match': tag }, expect: 304 });
    results.push(fromMeasurement(revalidated, () => atLeast200(revalidated)));
    const cached = await ctx.httpDroppingBodies({ name: `calendar feed, 3,000 bookings, unchanged (cache hit, ${Math.round(bytes / 1024)} KB)`, method: 'GET', next: () => ({ path }), expect: 200 });
    results.push(fromMeasurement(cached, () => atLeast200(cached)));
    results.push({ name: 'calendar feed, 3,000 bookings, first rendering', perSecond: renderMs, unit: 'ms', note: 'one request, cold' });
    return results;
  },
};
