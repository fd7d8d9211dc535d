import { freeSearchData, hourWindows, loadNow, searchHeaders } from '../free-search-bench.js';
import type { FreeSearchSizes } from '../seed-free-search.js';
import { fromMeasurement, type Workload } from '../workload.js';

/** Issue 39 item 3's size: 1,000 rooms (2 buildings × 10 floors × 50) and about 20,000 bookings, all in the coming 10 days (the dense days of the seed: about 2.9 a room a working day). */
const issueSizes: FreeSearchSizes = { buildings: 2, floors: 10, rooms: 50, bookings: 20_000, futureDays: 10 };

/**
 * GET /free-resources at issue 39's size, seeded as bench/seed-free-search.ts seeds (all its past
 * bookings): one-hour windows over the coming five working days in turn, by an LV4 booker, target
 * ≥ 500/s and p95 < 100 ms; then a weekly series of 20 one-hour occurrences, target p95 < 200 ms.
 * Runs only when named in --only.
 */
export const freeResourcesIssueSize: Workload = {
  name: 'free-resources-1000',
  async run(ctx) {
    if (!ctx.named.includes('free-resources-1000')) {
      console.error('free-resources-1000: skipped (name it in --only: it seeds 1,000 resources and 20,000 bookings)');
      return [];
    }
    const data = await freeSearchData(ctx, 'full', issueSizes);
    const headers = searchHeaders(ctx, data);
    const windows = hourWindows(data);
    const bookings = (data.futureBookings + data.pastBookings.held).toLocaleString('en');
    let k = 0;
    const hour = () => ({ path: `/booking/v1/free-resources?${windows[k++ % windows.length]}` });
    await ctx.http({ name: 'warm-up', method: 'GET', headers, next: hour, expect: 200, seconds: 2 });
    const oneHour = await ctx.http({ name: `free resources, 1 h, ${data.resources} rooms, ${bookings} bookings`, method: 'GET', headers, next: hour, expect: 200 });
    const hourLoad = loadNow();
    const rule = `recurrenceRule=${encodeURIComponent('FREQ=WEEKLY;COUNT=20')}&timeZone=Europe/Berlin`;
    const series = () => ({ path: `/booking/v1/free-resources?${windows[k++ % windows.length]}&${rule}` });
    const weekly = await ctx.http({ name: `free resources, series of 20 weekly, ${data.resources} rooms, ${bookings} bookings`, method: 'GET', headers, next: series, expect: 200 });
    const seriesLoad = loadNow();
    return [
      fromMeasurement(oneHour, () => ({ text: `≥ 500/s, p95 < 100 ms (${hourLoad})`, met: oneHour.perSecond >= 500 && oneHour.p95 < 100 })),
      fromMeasurement(weekly, () => ({ text: `p95 < 200 ms (${seriesLoad})`, met: weekly.p95 < 200 })),
    ];
  },
};
