import { fromMeasurement, type Workload } from '../workload.js';
import { creates } from './creates.js';

/** POST /bookings of distinct slots spread round-robin over the seeded resources; target ≥ 0.5 × pgbench tps. */
export const create: Workload = {
  name: 'create',
  async run(ctx) {
    const measured = await ctx.http({ name: `create, ${ctx.data.spread.length} resources`, method: 'POST', next: creates(ctx.data.spread, ctx.futureMs), expect: 201 });
    return [fromMeasurement(measured, (tps) => ({ text: `≥ 0.5 × pgbench = ${(tps / 2).toFixed(0)}/s`, met: measured.perSecond >= tps / 2 }))];
  },
};

/** Every create on one resource: one stream, decided one after another. */
export const createContended: Workload = {
  name: 'create-contended',
  async run(ctx) {
    return [fromMeasurement(await ctx.http({ name: 'create, one resource (contended)', method: 'POST', next: creates([ctx.data.contended], ctx.futureMs), expect: 201 }))];
  },
};
