import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../src/domain/access/principal.js';
import type { Booking } from '../../src/domain/booking/booking.js';
import type { BookingEvent } from '../../src/domain/booking/booking-events.js';
import { decideArchiveBookings } from '../../src/domain/booking/decide-archive-bookings.js';
import { decideCancelBooking } from '../../src/domain/booking/decide-cancel-booking.js';
import { decideCheckInBooking } from '../../src/domain/booking/decide-check-in-booking.js';
import { decideConfirmBooking } from '../../src/domain/booking/decide-confirm-booking.js';
import { decideCreateBooking } from '../../src/domain/booking/decide-create-booking.js';
import { decideRescheduleBooking } from '../../src/domain/booking/decide-reschedule-booking.js';
import { decideReminder } from '../../src/domain/booking/decide-system-moves.js';
import { decideRegister, decideUpdate } from '../../src/domain/resource/decide-resource.js';
import { resourceStreamId, type Resource } from '../../src/domain/resource/resource.js';
import type { Database } from '../../src/infra/db/database.js';
import type { EventOf, RecordedEvent } from '../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { projectEvents } from '../../src/infra/event-store/project-events.js';
import { projectors } from '../../src/projections/projectors.js';
import { findResource } from '../../src/projections/resource/resource-queries.js';
import { snapshotOf } from '../support/read-model-snapshot.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const admin: Principal = { sub: 'admin', workspace: null, level: 1, groups: [], email: null };
const at = (iso: string) => Temporal.Instant.from(iso);
const now = at('2030-01-01T08:00:00Z');

class RolledBack extends Error {}

/** The read models after `apply` in a transaction that is then rolled back. */
async function snapshotAfter(db: Database, apply: (trx: Database) => Promise<void>): Promise<Record<string, unknown[]>> {
  let snapshot: Record<string, unknown[]> = {};
  await db
    .transaction()
    .execute(async (trx) => {
      await apply(trx);
      snapshot = await snapshotOf(trx);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return snapshot;
}

describe('projecting events in runs (project-events.ts)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.destroy());

  it('writes what applying each event to each projector in turn writes, claimed timers included', async () => {
    const { db } = database;
    const store = createPostgresEventStore(db, { projections: projectors });
    const id = randomUUID();
    const registered = decideRegister(
      { id, workspace: randomUUID(), resourceType: 'zone', resourceId: 'runs', resourceName: 'Runs', bookingPolicy: { autoConfirm: false, maxAdvanceDays: 3650 } },
      null,
      admin,
      now,
    );
    const stream = resourceStreamId(id);
    await store.appendToStream(stream, [registered], 'no_stream');
    let resource = (await findResource(db, id)) as Resource;
    const bookings: Booking[] = [];
    for (let i = 0; i < 4; i++) {
      const created = decideCreateBooking(
        { id: randomUUID(), title: `b${i}`, startTime: at(`2030-01-10T0${i}:00:00Z`), endTime: at(`2030-01-10T0${i}:30:00Z`) },
        { resource, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] },
        { ...admin, workspace: resource.workspace },
        now,
      );
      await store.appendToStream(stream, [created], 'any');
      bookings.push(created.data.booking);
    }
    for (const i of [0, 1]) {
      const confirmed = decideConfirmBooking({ booking: bookings[i]!, resource }, admin, now);
      await store.appendToStream(stream, [confirmed], 'any');
      bookings[i] = confirmed.data.booking;
    }
    // A worker holds every timer: a replan that leaves a timer's time as it was keeps its claim.
    await sql`update timers set claimed_until = '2030-01-01T08:05:00Z'`.execute(db);

    const run: EventOf[] = [];
    const move = (i: number, event: BookingEvent) => {
      run.push(event);
      bookings[i] = event.data.booking;
    };
    const reschedule = (i: number, command: { startTime?: Temporal.Instant; endTime?: Temporal.Instant; title?: string }) => {
      const [event] = decideRescheduleBooking(command, { booking: bookings[i]!, resource, overlapping: [], blackouts: [] }, admin, now);
      move(i, event!);
    };
    // Moved and moved back in one run: its timers changed on the way, so their claims are gone.
    reschedule(0, { startTime: at('2030-01-10T05:00:00Z'), endTime: at('2030-01-10T05:30:00Z') });
    reschedule(0, { startTime: at('2030-01-10T00:00:00Z'), endTime: at('2030-01-10T00:30:00Z') });
    // Renamed twice: its timers never changed, they keep their claims.
    reschedule(1, { title: 'renamed' });
    reschedule(1, { title: 'renamed again' });
    move(2, decideConfirmBooking({ booking: bookings[2]!, resource }, admin, now));
    // A new grace period: the no-show timers move, between two runs.
    const updated = decideUpdate({ bookingPolicy: { gracePeriodMinutes: 25 } }, resource, admin, now);
    run.push(updated);
    resource = { ...resource, bookingPolicy: { ...resource.bookingPolicy, gracePeriodMinutes: 25 } };
    move(2, decideReminder(bookings[2]!, at('2030-01-10T01:50:00Z'), 15)[0]!);
    move(2, decideCheckInBooking({ booking: bookings[2]!, resource }, admin, at('2030-01-10T02:01:00Z')));
    move(3, decideCancelBooking({ booking: bookings[3]!, resource }, admin, now, 'no'));
    const [archived] = decideArchiveBookings([bookings[3]!], at('2030-02-01T00:00:00Z'), at('2030-02-01T00:00:00Z'));
    run.push(archived!);
    const created = decideCreateBooking(
      { id: randomUUID(), title: 'new', startTime: at('2030-01-10T03:00:00Z'), endTime: at('2030-01-10T03:30:00Z') },
      { resource, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] },
      { ...admin, workspace: resource.workspace },
      now,
    );
    run.push(created, decideConfirmBooking({ booking: created.data.booking, resource }, admin, now));

    const head = (await store.readLastEvent(stream))!;
    const recorded: RecordedEvent[] = run.map((event, i) => ({
      ...event,
      id: randomUUID(),
      metadata: {},
      streamId: stream,
      streamRevision: head.streamRevision + 1 + i,
      globalPosition: head.globalPosition + 1 + i,
      transactionId: head.transactionId,
      recordedAt: new Date(),
    }));

    const oneAtATime = await snapshotAfter(db, async (trx) => {
      for (const event of recorded) {
        for (const projector of projectors) if (projector.handles.has(event.type)) await projector.apply(trx as never, [event]);
      }
    });
    const inRuns = await snapshotAfter(db, (trx) => projectEvents(projectors, trx as never, recorded));
    expect(inRuns).to.deep.equal(oneAtATime);
    // The run left claimed and unclaimed timers, a moved grace period and an archived booking: a match of nothing would prove nothing.
    const timers = oneAtATime.timers as { booking_id: string; kind: string; claimed_until: string | null }[];
    const claimed = (i: number) => Object.fromEntries(timers.filter((t) => t.booking_id === bookings[i]!.id).map((t) => [t.kind, t.claimed_until !== null]));
    // The moved booking awaits confirmation again; the renamed one's no-show timer was moved by the new grace period.
    expect([claimed(0), claimed(1)]).to.deep.equal([
      { reminder: false, expire_pending: false },
      { reminder: true, no_show: false },
    ]);
    expect(oneAtATime.bookings_archive).to.have.length(1);
    expect(oneAtATime.bookings).to.have.length(4);
  });
});
