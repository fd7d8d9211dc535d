import { randomUUID } from 'node:crypto';
import { loadNow } from '../free-search-bench.js';
import { inTurns } from '../in-turns.js';
import { seedPool, settleSeededPools } from '../seed-pools.js';
import { createDatabase } from '../../src/infra/db/database.js';
import { fromMeasurement, type Workload } from '../workload.js';

const hour = 3_600_000;
const rounds = 2;

/**
 * Issue 29: available-slots?units=1 of a pool holding 3,000 bookings in the day, p95 within 1.5 ×
 * of the free-slots workload's (one day of the busy one-unit resource, ≈100 bookings a day), in
 * turns. The pool: 200 units in a workspace of its own, 3,000 one-hour one-unit bookings starting
 * every 19 s from 06:00 UTC (≈190 in use at once) on the busy resource's second day.
 */
export const poolSlots: Workload = {
  name: 'pool-slots',
  async run(ctx) {
    const { busy } = ctx.data;
    const workspace = randomUUID();
    const date = busy.firstDay.add({ days: 1 });
    const dayMs = date.toZonedDateTime('UTC').epochMilliseconds;
    const db = createDatabase(ctx.database);
    let poolId: string;
    try {
      poolId = (await seedPool(db, workspace, 'zone-pool-busy', 200, [{ startMs: dayMs + 6 * hour, minutes: 60, count: 3000, everyMs: 19_000 }])).id;
      await settleSeededPools(db, ctx.analyze);
    } finally {
      await db.destroy();
    }
    const headers = { authorization: `Bearer ${ctx.tokenFor(workspace)}` };
    const loadBefore = loadNow();
    const [room, pool] = await inTurns(rounds, ctx.seconds, [
      () => {
        let k = 0;
        const next = () => ({ path: `/booking/v1/resources/${busy.id}/available-slots?date=${busy.firstDay.add({ days: k++ % 30 }).toString()}&tz=Europe/Berlin` });
        return ctx.http({ name: 'free slots, one day of the busy one-unit resource (in turns)', method: 'GET', next, expect: 200 });
      },
      () => {
        const path = `/booking/v1/resources/${poolId}/available-slots?date=${date.toString()}&tz=Europe/Berlin&units=1`;
        return ctx.http({ name: 'free slots, units=1, one day of a pool of 200 holding 3,000 bookings (in turns)', method: 'GET', headers, next: () => ({ path }), expect: 200 });
      },
    ]);
    const ratio = pool!.p95 / room!.p95;
    return [
      { ...fromMeasurement(room!), note: `${loadBefore} before, ${loadNow()} after` },
      { ...fromMeasurement(pool!, () => ({ text: 'p95 within 1.5 × of the busy one-unit resource', met: ratio <= 1.5 })), note: `p95 ${ratio.toFixed(2)} ×, throughput ${(pool!.perSecond / room!.perSecond).toFixed(2)} ×` },
    ];
  },
};
