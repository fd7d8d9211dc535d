import os from 'node:os';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { createDatabase } from '../src/infra/db/database.js';
import { addPastBookings, freeSearchSizes, seedFreeSearch, type FreeSearchData, type FreeSearchSizes } from './seed-free-search.js';
import type { BenchContext } from './workload.js';

/**
 * The free search's seeded workspace (bench/seed-free-search.ts), shared by the free-resources
 * workloads of one run: seeded on first use in the bench's database, with a tenth of its past
 * bookings (`tenth`) or all of them (`full`; the rest added on first ask). Only when a search
 * workload is named in --only: seeding 2,000 resources and 300,000 bookings takes minutes.
 */
type Seeded = { database: string; data: Promise<FreeSearchData>; full?: Promise<FreeSearchData> };
const seededBySize = new Map<string, Seeded>();

/** Leaves the seeded tables as a running service would find them (see settle in run-bench.ts; no ANALYZE with --no-analyze). */
async function settle(ctx: BenchContext, work: (db: ReturnType<typeof createDatabase>) => Promise<void>): Promise<void> {
  const db = createDatabase(ctx.database);
  try {
    await work(db);
    if (ctx.analyze) await sql`vacuum (analyze) bookings, events, streams, resources, zones`.execute(db);
    await sql`checkpoint`.execute(db).catch(() => undefined);
  } finally {
    await db.destroy();
  }
}

export async function freeSearchData(ctx: BenchContext, past: 'tenth' | 'full', sizes: FreeSearchSizes = freeSearchSizes): Promise<FreeSearchData> {
  const database = ctx.database.database ?? '';
  const key = `${database}|${JSON.stringify(sizes)}`;
  let current = seededBySize.get(key);
  if (current?.database !== database) {
    let data!: FreeSearchData;
    current = { database, data: settle(ctx, async (db) => void (data = await seedFreeSearch(db, sizes))).then(() => data) };
    seededBySize.set(key, current);
    const ready = await current.data;
    console.error(`free search: ${ready.resources} resources, ${ready.futureBookings} future bookings and ${ready.pastBookings.held} of ${ready.pastBookings.seeded} past ones seeded in ${(ready.seconds.registrations + ready.seconds.first).toFixed(0)} s`);
  }
  if (past === 'tenth') return current.data;
  const data = await current.data;
  const held = data.pastBookings.held;
  current.full ??= settle(ctx, (db) => addPastBookings(db, data)).then(() => {
    console.error(`free search: the other ${data.pastBookings.held - held} past bookings added in ${data.seconds.rest.toFixed(0)} s`);
    return data;
  });
  return current.full;
}

/** One-hour windows over the dense coming working days, 08:00–17:00 Europe/Berlin, in turn. */
export function hourWindows(data: FreeSearchData, days = 5): string[] {
  return data.denseDays.slice(0, days).flatMap((day) =>
    Array.from({ length: 10 }, (_, h) => {
      const from = day.toZonedDateTime({ timeZone: 'Europe/Berlin', plainTime: Temporal.PlainTime.from({ hour: 8 + h }) }).toInstant();
      return `from=${encodeURIComponent(from.toString())}&to=${encodeURIComponent(from.add({ hours: 1 }).toString())}&tz=Europe/Berlin`;
    }),
  );
}

/** The seeded workspace's token (LV4, a booker of its own) as a request header. */
export const searchHeaders = (ctx: BenchContext, data: FreeSearchData) => ({ authorization: `Bearer ${ctx.tokenFor(data.workspace, { level: 'LV4', sub: 'bench-searcher' })}` });

/** The load average now, for a result's note: other engineers use the machine meanwhile. */
export const loadNow = () => `load ${os.loadavg()[0]!.toFixed(1)}`;
