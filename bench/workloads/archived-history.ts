import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../src/domain/access/principal.js';
import type { Booking } from '../../src/domain/booking/booking.js';
import { decideRegister } from '../../src/domain/resource/decide-resource.js';
import { resourceStreamId } from '../../src/domain/resource/resource.js';
import { createDatabase, type Database } from '../../src/infra/db/database.js';
import type { NewEvent } from '../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { projectors } from '../../src/projections/projectors.js';
import type { BenchContext, Workload, WorkloadResult } from '../workload.js';
import { fromMeasurement } from '../workload.js';

const liveBookings = 3_000;
const archivedBookings = 100_000;
const day = 24 * 3_600_000;
const seeder: Principal = { sub: 'bench-seed', workspace: null, level: 1, groups: [], email: null };

/** A live booking of the seeded resource: packed into the 30 days from `firstDayMs`, 06:00–22:00 UTC. */
function liveBooking(resourceId: string, workspace: string, firstDayMs: number, i: number, at: string): Booking {
  const perDay = Math.ceil(liveBookings / 30);
  const spacing = (16 * 3_600_000) / perDay;
  const start = firstDayMs + Math.floor(i / perDay) * day + 6 * 3_600_000 + (i % perDay) * spacing;
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  return {
    id: randomUUID(), bookableResourceId: resourceId, workspace, resourceType: 'zone', resourceId: 'zone-archive',
    bookerProfileId: `user-${i % 50}`, bookerEmail: null, createdBy: `user-${i % 50}`, title: 'Live', startTime: iso(start), endTime: iso(start + spacing * 0.9),
    bufferBeforeMinutes: 0, bufferAfterMinutes: 0, bundleId: null, calendarUid: null,
    units: 1, pooled: false, status: 'confirmed', isSeriesParent: false, recurrenceRule: null, recurrenceTimeZone: null, recurrenceParentId: null,
    exceptionOf: null, confirmedBy: null, confirmedAt: null, cancelledBy: null, cancelledAt: null, onBehalfOf: null, reason: null,
    checkedInAt: null, checkedOutAt: null, createdAt: at, updatedAt: at,
  };
}

/** A resource with 3,000 live bookings in the coming 30 days, appended through the store as in service. */
async function seedLive(db: Database, workspace: string): Promise<{ resourceId: string; firstDayMs: number }> {
  const store = createPostgresEventStore(db, { projections: projectors });
  const now = Temporal.Now.instant();
  const at = now.toString({ smallestUnit: 'second' });
  const resourceId = randomUUID();
  const registered = decideRegister(
    { id: resourceId, workspace, resourceType: 'zone', resourceId: 'zone-archive', resourceName: 'zone-archive', bookingPolicy: { maxAdvanceDays: 3650 } },
    null,
    seeder,
    now,
  );
  await store.appendToStream(resourceStreamId(resourceId), [registered], 'no_stream');
  const firstDayMs = Math.ceil(now.epochMilliseconds / day) * day + day;
  const created: NewEvent[] = Array.from({ length: liveBookings }, (_, i) => {
    const booking = liveBooking(resourceId, workspace, firstDayMs, i, at);
    return { type: 'BookingCreated', data: { booking, by: booking.bookerProfileId, at } };
  });
  for (let i = 0, revision = 0; i < created.length; i += 500) {
    const batch = created.slice(i, i + 500);
    await store.appendToStream(resourceStreamId(resourceId), batch, revision);
    revision += batch.length;
  }
  return { resourceId, firstDayMs };
}

/**
 * 100,000 completed bookings of the same resource in the three years before today, written straight
 * into the archive table in one statement: what retention leaves behind, without spending the
 * bench's time on 100,000 archive events (the read path under test reads only the tables).
 */
async function seedArchive(db: Database, resourceId: string, workspace: string): Promise<void> {
  await sql`
    insert into bookings_archive (id, bookable_resource_id, workspace, resource_type, resource_id, booker_profile_id, booker_email, created_by, title,
      start_time, end_time, status, is_series_parent, created_at, updated_at, archived_at)
    select gen_random_uuid(), ${resourceId}, ${workspace}, 'zone', 'zone-archive', 'user-' || (n % 50), null, 'user-' || (n % 50), 'Archived',
      now() - interval '3 years' + n * interval '15 minutes', now() - interval '3 years' + n * interval '15 minutes' + interval '10 minutes',
      'completed', false, now() - interval '3 years', now() - interval '3 years', now()
    from generate_series(1, ${archivedBookings}) as n`.execute(db);
  await sql`analyze bookings_archive`.execute(db);
}

/**
 * The 30-day schedule of a resource with 3,000 live bookings, computed afresh (each request a range
 * one millisecond later, so no cached answer), measured with an empty archive and again after
 * 100,000 archived bookings of the same resource: the live query must not slow down as the archive grows.
 */
export const archivedHistory: Workload = {
  name: 'archived-history',
  async run(ctx: BenchContext) {
    const db = createDatabase(ctx.database);
    try {
      const { resourceId, firstDayMs } = await seedLive(db, ctx.data.workspace);
      let k = 0;
      const next = () => {
        const from = firstDayMs + (k++ % day) + 1;
        return { path: `/booking/v1/resources/${resourceId}/schedule?from=${new Date(from).toISOString()}&to=${new Date(from + 30 * day).toISOString()}` };
      };
      const before = await ctx.http({ name: 'schedule, 30 days, 3,000 live bookings, archive empty', method: 'GET', next, expect: 200, connections: 1 });
      await seedArchive(db, resourceId, ctx.data.workspace);
      const after = await ctx.http({ name: 'schedule, 30 days, 3,000 live bookings, 100,000 archived', method: 'GET', next, expect: 200, connections: 1 });
      const results: WorkloadResult[] = [
        fromMeasurement(before),
        fromMeasurement(after, () => ({ text: 'p95 within 20 % (+5 ms) of the empty archive', met: after.p95 <= before.p95 * 1.2 + 5 })),
      ];
      return results;
    } finally {
      await db.destroy();
    }
  },
};
