import { fromMeasurement, type Workload } from '../workload.js';

/** GET /bookings/{id} of a random seeded booking; target ≥ 4,000 req/s. */
export const readOne: Workload = {
  name: 'read-one',
  async run(ctx) {
    const ids = ctx.data.busy.bookingIds;
    const measured = await ctx.http({ name: 'read one booking', method: 'GET', next: () => ({ path: `/booking/v1/bookings/${ids[Math.floor(Math.random() * ids.length)]}` }), expect: 200 });
    return [fromMeasurement(measured, () => ({ text: '≥ 4,000/s', met: measured.perSecond >= 4000 }))];
  },
};
