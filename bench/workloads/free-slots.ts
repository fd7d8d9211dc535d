import { fromMeasurement, type Workload } from '../workload.js';

/** GET /available-slots of one day of the busy resource (≈100 bookings a day), cycling over its 30 days; target ≥ 1,000 req/s. */
export const freeSlots: Workload = {
  name: 'free-slots',
  async run(ctx) {
    let k = 0;
    const { busy } = ctx.data;
    const measured = await ctx.http({
      name: 'free slots, one day',
      method: 'GET',
      next: () => ({ path: `/booking/v1/resources/${busy.id}/available-slots?date=${busy.firstDay.add({ days: k++ % 30 }).toString()}&tz=Europe/Berlin` }),
      expect: 200,
    });
    return [fromMeasurement(measured, () => ({ text: '≥ 1,000/s', met: measured.perSecond >= 1000 }))];
  },
};
