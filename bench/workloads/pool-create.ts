import { randomUUID } from 'node:crypto';
import { loadNow } from '../free-search-bench.js';
import { inTurns } from '../in-turns.js';
import { seedPool, settleSeededPools } from '../seed-pools.js';
import { createDatabase } from '../../src/infra/db/database.js';
import { fromMeasurement, type Workload } from '../workload.js';
import { creates } from './creates.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const pools = 200;
const rounds = 2;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * One-unit creates of distinct half-hours inside 08:00–16:00 UTC of the round's day: pool k mod 200,
 * then the next half-hour; each half-hour takes ten before it is full (40 in use + 10 = 50).
 */
function poolCreates(zoneIds: string[], dayMs: number): () => { path: string; body: unknown } {
  let k = 0;
  return () => {
    const pass = Math.floor(k / zoneIds.length);
    const startMs = dayMs + 8 * hour + (pass % 16) * 30 * minute;
    const resourceId = zoneIds[k % zoneIds.length]!;
    k += 1;
    return { path: '/booking/v1/bookings', body: { resourceType: 'zone', resourceId, title: 'Bench', startTime: iso(startMs), endTime: iso(startMs + 30 * minute), units: 1 } };
  };
}

/**
 * Issue 29: a create on a pool of 50 units with 40 in use at the asked hour, within 1.2 × of a
 * create on a one-unit resource in throughput, at 32 connections. 200 pools of 50 units in a
 * workspace of their own, each holding 40 one-unit bookings 08:00–16:00 UTC on each round's day
 * (16,000 bookings); the creates take half-hours of that range (pools round-robin, so a create
 * meets 40–42 units in use). Against the create workload's creates on the 200 one-unit resources,
 * in turns (plain, pool, plain, pool), each round on fresh slots.
 */
export const poolCreate: Workload = {
  name: 'pool-create',
  async run(ctx) {
    const workspace = randomUUID();
    const firstDayMs = Math.ceil((ctx.futureMs + 60 * day) / day) * day;
    const db = createDatabase(ctx.database);
    const zoneIds: string[] = [];
    try {
      for (let p = 0; p < pools; p++) {
        const fills = Array.from({ length: rounds }, (_, r) => ({ startMs: firstDayMs + r * day + 8 * hour, minutes: 480, count: 40, everyMs: 0 }));
        zoneIds.push((await seedPool(db, workspace, `zone-pool-${p}`, 50, fills)).resourceId);
      }
      await settleSeededPools(db, ctx.analyze);
    } finally {
      await db.destroy();
    }
    const headers = { authorization: `Bearer ${ctx.tokenFor(workspace)}` };
    const plainFromMs = ctx.futureMs + 5 * 365 * day;
    const loadBefore = loadNow();
    const [plain, pool] = await inTurns(rounds, ctx.seconds, [
      (round) => ctx.http({ name: `create, ${ctx.data.spread.length} one-unit resources (in turns)`, method: 'POST', next: creates(ctx.data.spread, plainFromMs + round * 30 * day), expect: 201 }),
      (round) => ctx.http({ name: `create, 1 unit, ${pools} pools of 50 with 40 in use (in turns)`, method: 'POST', headers, next: poolCreates(zoneIds, firstDayMs + round * day), expect: 201 }),
    ]);
    const ratio = plain!.perSecond / pool!.perSecond;
    const load = `${loadBefore} before, ${loadNow()} after`;
    return [
      { ...fromMeasurement(plain!), note: load },
      {
        ...fromMeasurement(pool!, () => ({ text: 'throughput within 1.2 × of one-unit creates', met: ratio <= 1.2 })),
        note: `one-unit ÷ pool throughput ${ratio.toFixed(2)} ×, p95 ${(pool!.p95 / plain!.p95).toFixed(2)} ×`,
      },
    ];
  },
};
