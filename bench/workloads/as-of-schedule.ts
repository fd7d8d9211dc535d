import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../src/domain/access/principal.js';
import type { Booking } from '../../src/domain/booking/booking.js';
import { decideRegister } from '../../src/domain/resource/decide-resource.js';
import { resourceStreamId } from '../../src/domain/resource/resource.js';
import { createDatabase } from '../../src/infra/db/database.js';
import type { NewEvent } from '../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { projectors } from '../../src/projections/projectors.js';
import type { PostgresConfig } from '../../tests/support/scratch-database.js';
import type { Measurement, Scenario } from '../measure.js';

/** What this workload takes from the bench's context (bench/workload.ts BenchContext). */
type AsOfBenchContext = {
  token: string;
  data: { workspace: string };
  database: PostgresConfig;
  http(scenario: Omit<Scenario, 'connections' | 'seconds'> & { connections?: number; seconds?: number }): Promise<Measurement>;
};

const bookings = 3_000;
const events = 10_000;
const day = 24 * 3_600_000;
const seeder: Principal = { sub: 'bench-seed', workspace: null, level: 1, groups: [], email: null };

/** A booking of the seeded resource: packed into 30 days, 06:00–22:00 UTC. */
function seededBooking(resourceId: string, workspace: string, firstDayMs: number, i: number, at: string): Booking {
  const perDay = Math.ceil(bookings / 30);
  const spacing = (16 * 3_600_000) / perDay;
  const start = firstDayMs + Math.floor(i / perDay) * day + 6 * 3_600_000 + (i % perDay) * spacing;
  return {
    id: randomUUID(), bookableResourceId: resourceId, workspace, resourceType: 'zone', resourceId: 'zone-as-of',
    bookerProfileId: `user-${i % 50}`, bookerEmail: null, createdBy: `user-${i % 50}`, title: 'Seeded', startTime: new Date(start).toISOString().replace('.000Z', 'Z'),
    endTime: new Date(start + spacing * 0.9).toISOString().replace('.000Z', 'Z'), units: 1, pooled: false, status: 'confirmed', isSeriesParent: false,
    bufferBeforeMinutes: 0, bufferAfterMinutes: 0, bundleId: null, calendarUid: null,
    recurrenceRule: null, recurrenceTimeZone: null, recurrenceParentId: null, exceptionOf: null, confirmedBy: null, confirmedAt: null,
    cancelledBy: null, cancelledAt: null, onBehalfOf: null, reason: null, checkedInAt: null, checkedOutAt: null, createdAt: at, updatedAt: at,
  };
}

/**
 * A resource with 3,000 bookings and a stream of 10,000 events (creates, then title changes),
 * appended through the store so the read models and the hash chain are as in service.
 */
async function seedLongHistory(ctx: AsOfBenchContext): Promise<{ resourceId: string; firstDayMs: number }> {
  const db = createDatabase(ctx.database);
  try {
    const store = createPostgresEventStore(db, { projections: projectors });
    const now = Temporal.Now.instant();
    const at = now.toString({ smallestUnit: 'second' });
    const resourceId = randomUUID();
    const registered = decideRegister(
      { id: resourceId, workspace: ctx.data.workspace, resourceType: 'zone', resourceId: 'zone-as-of', resourceName: 'zone-as-of', bookingPolicy: { maxAdvanceDays: 3650 } },
      null,
      seeder,
      now,
    );
    await store.appendToStream(resourceStreamId(resourceId), [registered], 'no_stream');
    const firstDayMs = Math.ceil(now.epochMilliseconds / day) * day + day;
    const seeded = Array.from({ length: bookings }, (_, i) => seededBooking(resourceId, ctx.data.workspace, firstDayMs, i, at));
    const stream: NewEvent[] = seeded.map((booking) => ({ type: 'BookingCreated', data: { booking, by: booking.bookerProfileId, at } }));
    for (let round = 1; stream.length < events - 1; round++) {
      for (const booking of seeded) {
        if (stream.length >= events - 1) break;
        const changed = { ...booking, title: `Seeded ${round}` };
        stream.push({ type: 'BookingRescheduled', data: { booking: changed, by: booking.bookerProfileId, at, previousStartTime: booking.startTime, previousEndTime: booking.endTime } });
      }
    }
    for (let i = 0, revision = 0; i < stream.length; i += 500) {
      const batch = stream.slice(i, i + 500);
      await store.appendToStream(resourceStreamId(resourceId), batch, revision);
      revision += batch.length;
    }
    return { resourceId, firstDayMs };
  } finally {
    await db.destroy();
  }
}

/**
 * The 30-day schedule of a resource with a long history, as known at an instant: folded from the
 * log and its snapshots, not read from the read model. Target: p95 < 200 ms at one connection.
 */
export const asOfSchedule = {
  name: 'as-of-schedule',
  async run(ctx: AsOfBenchContext) {
    const { resourceId, firstDayMs } = await seedLongHistory(ctx);
    const asOf = new Date().toISOString();
    const from = new Date(firstDayMs).toISOString();
    const to = new Date(firstDayMs + 30 * day).toISOString();
    const path = `/booking/v1/resources/${resourceId}/schedule?from=${from}&to=${to}&asOf=${encodeURIComponent(asOf)}`;
    const measured = await ctx.http({ name: 'schedule asOf, 30 days, 3,000 bookings, 10,000 events', method: 'GET', next: () => ({ path }), expect: 200, connections: 1 });
    return [
      {
        name: measured.name,
        perSecond: measured.perSecond,
        p50: measured.p50,
        p95: measured.p95,
        p99: measured.p99,
        unexpected: measured.unexpected,
        target: () => ({ text: 'p95 < 200 ms at one connection', met: measured.p95 < 200 }),
      },
    ];
  },
};
