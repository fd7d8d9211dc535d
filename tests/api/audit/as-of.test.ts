import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { evolveBookingsKnown, type BookingsKnown } from '../../../src/domain/booking/bookings-known.js';
import { resourceStreamId } from '../../../src/domain/resource/resource.js';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { bookingsAsOf } from '../../../src/projections/history/bookings-as-of.js';
import { booking } from '../../domain/booking/booking-fixtures.js';
import { bookingBody, instantAfterPause, registerZone, setClock } from '../booking/booking-api.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/** The wall-clock instant now, after a pause that separates it from the events around it. */
describe('time travel with asOf', function () {
  this.timeout(120_000);
  let server: TestServer;
  let resourceId: string;
  let bookingId: string;
  let alice: string;
  const times: Record<'beforeCreate' | 'afterCreate' | 'afterReschedule', string> = { beforeCreate: '', afterCreate: '', afterReschedule: '' };

  before(async () => {
    server = await startTestServer();
    // Bookings live in 2027 by the service's clock; asOf compares with when events were recorded.
    setClock(server, '2027-01-04T08:00:00Z');
    alice = server.token({ level: 'LV4', sub: 'alice' });
    resourceId = await registerZone(server, 'asof-room');
    times.beforeCreate = await instantAfterPause();
    const created = await server.request('POST', '/booking/v1/bookings', {
      body: bookingBody('asof-room', '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z'),
      token: alice,
    });
    bookingId = created.body.id;
    times.afterCreate = await instantAfterPause();
    const moved = await server.request('PATCH', `/booking/v1/bookings/${bookingId}`, {
      token: alice,
      body: { startTime: '2027-01-06T09:00:00Z', endTime: '2027-01-06T10:00:00Z' },
    });
    expect(moved.status).to.equal(200);
    times.afterReschedule = await instantAfterPause();
    await server.request('PATCH', `/booking/v1/bookings/${bookingId}/cancel`, { token: alice, body: { reason: 'later' } });
  });
  after(() => server.stop());

  const getBooking = (asOf: string, token = alice) =>
    server.request('GET', `/booking/v1/bookings/${bookingId}?asOf=${encodeURIComponent(asOf)}`, { token });
  const schedule = (asOf: string) =>
    server.request('GET', `/booking/v1/resources/${resourceId}/schedule?from=2027-01-05T00:00:00Z&to=2027-01-07T00:00:00Z&asOf=${encodeURIComponent(asOf)}`, {
      token: alice,
    });

  it('answers a booking as it stood at each instant, and 404 before it was known', async () => {
    expect((await getBooking(times.beforeCreate)).status).to.equal(404);
    const first = await getBooking(times.afterCreate);
    expect(first.status).to.equal(200);
    expect([first.body.startTime, first.body.status]).to.deep.equal(['2027-01-05T09:00:00Z', 'confirmed']);
    const second = await getBooking(times.afterReschedule);
    expect([second.body.startTime, second.body.status]).to.deep.equal(['2027-01-06T09:00:00Z', 'confirmed']);
    const live = await server.request('GET', `/booking/v1/bookings/${bookingId}`, { token: alice });
    expect(live.body.status).to.equal('cancelled');
    expect(Object.keys(second.body)).to.deep.equal(Object.keys(live.body));
  });

  it('answers the schedule as it stood, from the log', async () => {
    const atCreate = await schedule(times.afterCreate);
    expect(atCreate.status).to.equal(200);
    expect(atCreate.body.bookings.map((b: any) => [b.id, b.startTime])).to.deep.equal([[bookingId, '2027-01-05T09:00:00Z']]);
    const atReschedule = await schedule(times.afterReschedule);
    expect(atReschedule.body.bookings.map((b: any) => b.startTime)).to.deep.equal(['2027-01-06T09:00:00Z']);
    const now = await schedule(new Date().toISOString());
    expect(now.body.bookings).to.deep.equal([]);
    const live = await server.request('GET', `/booking/v1/resources/${resourceId}/schedule?from=2027-01-05T00:00:00Z&to=2027-01-07T00:00:00Z`, { token: alice });
    expect(now.body).to.deep.equal(live.body);
  });

  it('keeps the privacy rules of today: another user gets 404 and anonymous schedule entries', async () => {
    const bob = server.token({ level: 'LV4', sub: 'bob' });
    expect((await getBooking(times.afterCreate, bob)).status).to.equal(404);
    const res = await server.request(
      'GET',
      `/booking/v1/resources/${resourceId}/schedule?from=2027-01-05T00:00:00Z&to=2027-01-07T00:00:00Z&asOf=${encodeURIComponent(times.afterCreate)}`,
      { token: bob },
    );
    expect(res.body.bookings.map((b: any) => [b.title, b.bookerProfileId])).to.deep.equal([[null, null]]);
    const otherWorkspace = server.token({ level: 'LV2', workspace: randomUUID() });
    expect((await getBooking(times.afterCreate, otherWorkspace)).status).to.equal(404);
  });

  it('refuses an instant without offset, not a date, or in the future with 400', async () => {
    for (const asOf of ['2026-11-22T10:00:00', 'yesterday', '2030-01-01T00:00:00Z']) {
      const one = await getBooking(asOf);
      expect(one.status, asOf).to.equal(400);
      expect(one.body.statusCode).to.equal(400);
      expect((await schedule(asOf)).status, asOf).to.equal(400);
    }
  });

  describe('long streams', () => {
    it('answers from snapshots what a fold of the whole stream answers', async () => {
      const store = createPostgresEventStore(server.database.db, { projections: [] });
      const id = randomUUID();
      const bookings = Array.from({ length: 700 }, (_, i) => booking({ id: randomUUID(), title: `b${i}` }));
      const marks: string[] = [];
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < bookings.length; i += 100) {
          const events = bookings.slice(i, i + 100).map((b) => ({ type: 'BookingRescheduled', data: { booking: { ...b, title: `${b.title}-${round}` }, by: 'x', at: b.createdAt } }));
          await store.appendToStream(resourceStreamId(id), events, 'any');
        }
        marks.push(await instantAfterPause());
      }
      const fold = async (asOf: string) => {
        const all = await store.readStream(resourceStreamId(id));
        const state: BookingsKnown = {};
        for (const e of all.filter((e) => e.recordedAt.getTime() <= Date.parse(asOf))) evolveBookingsKnown(state, e);
        return Object.values(state).map((b) => b.title).sort();
      };
      for (const mark of [...marks, marks[0]!, marks[1]!]) {
        const answer = await bookingsAsOf(server.database.db, server.services.logReader, id, Temporal.Instant.from(mark));
        expect(answer!.map((b) => b.title).sort()).to.deep.equal(await fold(mark));
      }
      const snapshots = await sql<{ revision: number }>`
        select revision from history_snapshots where stream_id = ${resourceStreamId(id)} order by revision`.execute(server.database.db);
      expect(snapshots.rows.map((r) => Number(r.revision))).to.deep.equal([999, 1999]);
    });
  });
});
