import { freeSearchData, hourWindows, loadNow, searchHeaders } from '../free-search-bench.js';
import { fromMeasurement, type Workload } from '../workload.js';

/**
 * GET /free-resources of a weekly series of 20 one-hour occurrences (FREQ=WEEKLY;COUNT=20,
 * Europe/Berlin), the first over the coming five working days in turn, in the seeded workspace of
 * 2,000 rooms and 300,000 bookings (bench/seed-free-search.ts); target p95 < 300 ms.
 * Runs only when named in --only (seeding takes minutes).
 */
export const freeResourcesSeries: Workload = {
  name: 'free-resources-series',
  async run(ctx) {
    if (!ctx.named.includes('free-resources-series')) {
      console.error('free-resources-series: skipped (name it in --only: it seeds 2,000 resources and 300,000 bookings)');
      return [];
    }
    const data = await freeSearchData(ctx, 'full');
    const headers = searchHeaders(ctx, data);
    const windows = hourWindows(data);
    const rule = `recurrenceRule=${encodeURIComponent('FREQ=WEEKLY;COUNT=20')}&timeZone=Europe/Berlin`;
    let k = 0;
    const next = () => ({ path: `/booking/v1/free-resources?${windows[k++ % windows.length]}&${rule}` });
    await ctx.http({ name: 'warm-up', method: 'GET', headers, next, expect: 200, seconds: 2 });
    const measured = await ctx.http({ name: `free resources, series of 20 weekly, ${data.resources} rooms`, method: 'GET', headers, next, expect: 200 });
    const load = loadNow();
    return [fromMeasurement(measured, () => ({ text: `p95 < 300 ms (${load})`, met: measured.p95 < 300 }))];
  },
};
