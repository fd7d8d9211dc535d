import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../src/domain/access/principal.js';
import type { BookingCreated } from '../src/domain/booking/booking-events.js';
import { decideCreateBooking } from '../src/domain/booking/decide-create-booking.js';
import { decideRegister } from '../src/domain/resource/decide-resource.js';
import { resourceStreamId, type Resource } from '../src/domain/resource/resource.js';
import type { Database } from '../src/infra/db/database.js';
import { createPostgresEventStore } from '../src/infra/event-store/postgres-event-store.js';
import { projectors } from '../src/projections/projectors.js';
import { findResource } from '../src/projections/resource/resource-queries.js';

const seeder: Principal = { sub: 'bench-seed', workspace: null, level: 1, groups: [], email: null };

/** A range of one-unit bookings to place on a pool: `count` of `minutes` each, the k-th starting `k × everyMs` after `startMs`. */
export type PoolFill = { startMs: number; minutes: number; count: number; everyMs: number };

/**
 * Registers a pool (`units` > 1, a ten-year horizon) in the workspace and places the fills' bookings
 * on it through the event store with its projections, as creates would: the read models and the
 * pool's count trigger (migration 0031) see every one. Bookers take turns among 50 users.
 */
export async function seedPool(db: Database, workspace: string, zoneId: string, units: number, fills: PoolFill[]): Promise<Resource> {
  const store = createPostgresEventStore(db, { projections: projectors });
  const id = randomUUID();
  const now = Temporal.Now.instant();
  const registered = decideRegister({ id, workspace, resourceType: 'zone', resourceId: zoneId, resourceName: zoneId, units, bookingPolicy: { maxAdvanceDays: 3650 } }, null, seeder, now);
  let revision = (await store.appendToStream(resourceStreamId(id), [registered], 'no_stream')).nextExpectedRevision;
  const resource = (await findResource(db, id))!;
  for (const fill of fills) {
    const events: BookingCreated[] = Array.from({ length: fill.count }, (_, k) => {
      const booker = `user-${k % 50}`;
      const actor: Principal = { sub: booker, workspace, level: 4, groups: [], email: `${booker}@example.com` };
      const start = Temporal.Instant.fromEpochMilliseconds(fill.startMs + k * fill.everyMs);
      const command = { id: randomUUID(), title: 'Seeded', startTime: start, endTime: start.add({ minutes: fill.minutes }), units: 1 };
      return decideCreateBooking(command, { resource, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] }, actor, now);
    });
    for (let i = 0; i < events.length; i += 500) revision = (await store.appendToStream(resourceStreamId(id), events.slice(i, i + 500), revision)).nextExpectedRevision;
  }
  return resource;
}

/**
 * After seeding pools, as the bench settles the server before its workloads (unless --no-analyze):
 * statistics that know the new bookings. Without, the planner takes the bookings for one resource's
 * (the statistics of the bench's own seed) and the pool trigger's count scans every booking of the
 * hour in the database.
 */
export async function settleSeededPools(db: Database, analyze: boolean): Promise<void> {
  if (analyze) await sql`vacuum (analyze)`.execute(db);
}
