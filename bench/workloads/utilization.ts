import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../src/domain/access/principal.js';
import type { Booking } from '../../src/domain/booking/booking.js';
import type { BookingEvent } from '../../src/domain/booking/booking-events.js';
import { decideCreateBooking } from '../../src/domain/booking/decide-create-booking.js';
import { decideCompletion, decideNoShow } from '../../src/domain/booking/decide-system-moves.js';
import { decideRegister } from '../../src/domain/resource/decide-resource.js';
import { resourceStreamId, type Availability, type Resource } from '../../src/domain/resource/resource.js';
import { createDatabase, type Database } from '../../src/infra/db/database.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { bookingToRow } from '../../src/projections/booking/booking-row.js';
import { projectors } from '../../src/projections/projectors.js';
import { findResource } from '../../src/projections/resource/resource-queries.js';
import type { PostgresConfig } from '../../tests/support/scratch-database.js';

/**
 * What this workload needs of bench/workload.ts's BenchContext (the bench's own context fits it),
 * written out so that the file stands on its own.
 */
type UtilizationBenchContext = {
  url: string;
  tokenFor(workspace: string): string;
  database: PostgresConfig;
  http(scenario: { name: string; method: 'GET'; next: () => { path: string }; expect: number; connections?: number; headers?: Record<string, string> }): Promise<{
    name: string;
    perSecond: number;
    p50: number;
    p95: number;
    p99: number;
    unexpected: Record<string, number>;
  }>;
};

const resources = 200;
const days = 30;
const zone = 'Europe/Berlin';
const seeder: Principal = { sub: 'bench-seed', workspace: null, level: 1, groups: [], email: null };
const weekday = [{ start: '08:00', end: '18:00' }];
const officeHours: Availability = { timeZone: zone, hours: { monday: weekday, tuesday: weekday, wednesday: weekday, thursday: weekday, friday: weekday } };
/** Four bookings an open day, wall-clock in Berlin. */
const slots = [
  ['08:30', 90],
  ['10:30', 90],
  ['13:00', 120],
  ['15:30', 120],
] as const;

/**
 * The last `days` days before today: every resource (a quarter without hours, open every day; the
 * rest open weekdays 08:00–18:00) gets four bookings an open day, each created a day ahead and then
 * completed, or (one in five) marked no-show. The events go to the log; the read models get each
 * booking's last state in bulk, as the projectors leave it (terminal bookings have no timers).
 */
async function seed(db: Database, workspace: string, today: Temporal.PlainDate): Promise<void> {
  const registering = createPostgresEventStore(db, { projections: projectors });
  const logOnly = createPostgresEventStore(db, { projections: [] });
  for (let r = 0; r < resources; r++) {
    const id = randomUUID();
    const availability = r % 4 === 0 ? null : officeHours;
    const now = Temporal.Now.instant();
    const registered = decideRegister({ id, workspace, resourceType: 'zone', resourceId: `zone-utilization-${r}`, resourceName: `utilization ${r}`, availability, bookingPolicy: { maxAdvanceDays: 3650 } }, null, seeder, now);
    await registering.appendToStream(resourceStreamId(id), [registered], 'no_stream');
    const resource = (await findResource(db, id)) as Resource;
    const events: BookingEvent[] = [];
    const last: Booking[] = [];
    for (let d = days; d >= 1; d--) {
      const date = today.subtract({ days: d });
      if (availability && date.dayOfWeek > 5) continue;
      for (const [k, [time, minutes]] of slots.entries()) {
        const start = date.toZonedDateTime({ timeZone: zone, plainTime: time }).toInstant();
        const actor: Principal = { sub: `user-${(r + k) % 50}`, workspace, level: 4, groups: [], email: null };
        const created = decideCreateBooking({ id: randomUUID(), title: 'Seeded', startTime: start, endTime: start.add({ minutes }) }, { resource, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] }, actor, start.subtract({ hours: 24 }));
        const booking = created.data.booking;
        const [ended] = (d + k) % 5 === 0 ? decideNoShow(booking, resource, start.add({ minutes: 30 })) : decideCompletion(booking, start.add({ minutes }));
        events.push(created, ended!);
        last.push(ended!.data.booking);
      }
    }
    await logOnly.appendToStream(resourceStreamId(id), events, 0);
    for (let i = 0; i < last.length; i += 500) {
      const batch = last.slice(i, i + 500);
      await db.insertInto('bookings').values(batch.map(bookingToRow)).execute();
      await db
        .insertInto('utilization_bookings')
        .values(batch.map((b) => ({ booking_id: b.id, bookable_resource_id: id, start_time: new Date(b.startTime), end_time: new Date(b.endTime), start_us: Date.parse(b.startTime) * 1000, end_us: Date.parse(b.endTime) * 1000, status: b.status, checked_in: false, units: 1 })))
        .execute();
    }
  }
}

/**
 * GET /analytics/utilization for 200 resources × 30 days grouped by Berlin day (6,000 rows of
 * ~18,000 bookings), at one connection: the p95 target is 100 ms. The request names no resource
 * (resourceId repeats at most 20 times), so these 200 get a workspace of their own, which the
 * request covers whole. Each request starts a millisecond later than the one before, so none
 * repeats another.
 */
export const utilization = {
  name: 'utilization',
  async run(ctx: UtilizationBenchContext) {
    const db = createDatabase(ctx.database);
    const today = Temporal.Now.zonedDateTimeISO(zone).toPlainDate();
    const workspace = randomUUID();
    try {
      await seed(db, workspace, today);
    } finally {
      await db.destroy();
    }
    const from = today.subtract({ days }).toZonedDateTime({ timeZone: zone }).toInstant();
    const to = today.toZonedDateTime({ timeZone: zone }).toInstant();
    let k = 0;
    const path = () => {
      const shift = k++ % 60_000;
      return `/booking/v1/analytics/utilization?from=${encodeURIComponent(from.add({ milliseconds: shift }).toString())}&to=${encodeURIComponent(to.toString())}&tz=${zone}&groupBy=day`;
    };
    const m = await ctx.http({ name: 'utilization, 200 resources × 30 days by day', method: 'GET', next: () => ({ path: path() }), expect: 200, connections: 1, headers: { authorization: `Bearer ${ctx.tokenFor(workspace)}` } });
    return [
      {
        name: m.name,
        perSecond: m.perSecond,
        p50: m.p50,
        p95: m.p95,
        p99: m.p99,
        unexpected: m.unexpected,
        target: () => ({ text: 'p95 < 100 ms at 1 connection', met: m.p95 < 100 }),
      },
    ];
  },
};
