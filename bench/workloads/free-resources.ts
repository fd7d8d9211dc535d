import { freeSearchData, hourWindows, loadNow, searchHeaders } from '../free-search-bench.js';
import { fromMeasurement, type Workload, type WorkloadResult } from '../workload.js';

const F = '/booking/v1/free-resources';
const fast = (m: { perSecond: number; p95: number }) => ({ text: 'p95 < 100 ms, ≥ 500/s', met: m.p95 < 100 && m.perSecond >= 500 });

/**
 * GET /free-resources of one-hour windows over the coming five working days (08:00–17:00 Berlin, in
 * turn) in the seeded workspace of 2,000 rooms (bench/seed-free-search.ts), by an LV4 booker:
 * - first with a tenth of the past bookings, then with all of them (ten times the past, 300,000
 *   bookings in all): the same search, its p95 within 1.2×;
 * - without filters (every room a candidate), and with zoneId (a building or a floor, in turn) and
 *   minCapacity (4 or 8): p95 < 100 ms and ≥ 500 req/s, the filtered p95 no higher.
 * Runs only when named in --only (seeding takes minutes).
 */
export const freeResources: Workload = {
  name: 'free-resources',
  async run(ctx) {
    if (!ctx.named.includes('free-resources')) {
      console.error('free-resources: skipped (name it in --only: it seeds 2,000 resources and 300,000 bookings)');
      return [];
    }
    const tenth = await freeSearchData(ctx, 'tenth');
    const headers = searchHeaders(ctx, tenth);
    const windows = hourWindows(tenth);
    const unfiltered = (name: string) => {
      let k = 0;
      return ctx.http({ name, method: 'GET', headers, next: () => ({ path: `${F}?${windows[k++ % windows.length]}` }), expect: 200 });
    };
    await ctx.http({ name: 'warm-up', method: 'GET', headers, next: () => ({ path: `${F}?${windows[0]}` }), expect: 200, seconds: 2 });
    const before = await unfiltered(`free resources, 1 h, ${tenth.resources} rooms, ${(tenth.futureBookings + tenth.pastBookings.held).toLocaleString('en')} bookings (a tenth of the past)`);
    const loadBefore = loadNow();
    const pastBefore = tenth.pastBookings.held;

    const data = await freeSearchData(ctx, 'full');
    await ctx.http({ name: 'warm-up', method: 'GET', headers, next: () => ({ path: `${F}?${windows[1]}` }), expect: 200, seconds: 2 });
    const all = await unfiltered(`free resources, 1 h, ${data.resources} rooms, ${(data.futureBookings + data.pastBookings.held).toLocaleString('en')} bookings`);
    const loadAll = loadNow();
    let k = 0;
    const zones = data.buildings.flatMap((building, b) => [building, data.floors[b * 10 + 3]!]);
    const filtered = await ctx.http({
      name: 'free resources, 1 h, zoneId (building or floor) + minCapacity (4 or 8)',
      method: 'GET',
      headers,
      next: () => {
        const i = k++;
        return { path: `${F}?${windows[i % windows.length]}&zoneId=${zones[i % zones.length]}&minCapacity=${i % 3 === 0 ? 8 : 4}` };
      },
      expect: 200,
    });
    const loadFiltered = loadNow();

    const ratio = all.p95 / before.p95;
    const results: WorkloadResult[] = [
      { ...fromMeasurement(before), note: loadBefore },
      { ...fromMeasurement(all, () => fast(all)), target: () => ({ ...fast(all), text: `${fast(all).text} (${loadAll})` }) },
      { ...fromMeasurement(filtered), target: () => ({ text: `p95 < 100 ms, ≥ 500/s, p95 ≤ unfiltered (${loadFiltered})`, met: fast(filtered).met && filtered.p95 <= all.p95 }) },
      {
        name: `free resources, 1 h: p95 with ${data.pastBookings.held.toLocaleString('en')} past bookings ÷ with ${pastBefore.toLocaleString('en')}`,
        perSecond: ratio,
        unit: '×',
        target: () => ({ text: `≤ 1.2× (p95 ${ratio.toFixed(2)}×, p50 ${(all.p50 / before.p50).toFixed(2)}×, req/s ${(all.perSecond / before.perSecond).toFixed(2)}×)`, met: ratio <= 1.2 }),
      },
    ];
    return results;
  },
};
