import { expect } from 'chai';
import { rebuildReadModels } from '../../src/projections/rebuild-read-models.js';
import { bookingBody, registerZone, setClock } from '../api/booking/booking-api.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('rebuilding the read models from the log', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
  });
  after(() => server.stop());

  const snapshot = async () => ({
    resources: await server.database.db.selectFrom('resources').selectAll().orderBy('id').execute(),
    bookings: await server.database.db.selectFrom('bookings').selectAll().orderBy('id').execute(),
    timers: await server.database.db.selectFrom('timers').selectAll().orderBy('booking_id').orderBy('kind').execute(),
  });

  it('gives tables equal to the live ones after every kind of change', async () => {
    const admin = server.token({ level: 'LV2', sub: 'admin' });
    const alice = server.token({ level: 'LV4', sub: 'alice' });
    const room = await registerZone(server, 'rebuild-room', { bookingPolicy: { autoConfirm: false, maxAdvanceDays: 365 } });
    const desk = await registerZone(server, 'rebuild-desk');
    const gone = await registerZone(server, 'rebuild-gone');
    await server.request('PATCH', `/booking/v1/resources/${desk}`, { body: { capacity: 2, bookingPolicy: { gracePeriodMinutes: 5 } } });

    const ids: string[] = [];
    for (let hour = 9; hour < 14; hour++) {
      const at = (m: string) => `2027-01-05T${String(hour).padStart(2, '0')}:${m}:00Z`;
      const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('rebuild-room', at('00'), at('30')), token: alice });
      expect(res.status).to.equal(201);
      ids.push(res.body.id);
    }
    await server.request('PATCH', `/booking/v1/bookings/${ids[0]}/confirm`, { token: admin });
    await server.request('PATCH', `/booking/v1/bookings/${ids[1]}/cancel`, { token: alice, body: { reason: 'no' } });
    await server.request('PATCH', `/booking/v1/bookings/${ids[2]}`, { token: alice, body: { startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:45:00Z' } });
    await server.request('POST', '/booking/v1/bookings', { body: bookingBody('rebuild-desk', '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z') });
    await server.request('POST', '/booking/v1/bookings', { body: bookingBody('rebuild-gone', '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z') });
    const series = await server.request('POST', '/booking/v1/bookings/bulk', {
      body: { ...bookingBody('rebuild-desk', '2027-01-11T09:00:00Z', '2027-01-11T09:15:00Z'), recurrenceRule: 'FREQ=WEEKLY;COUNT=4' },
    });
    expect(series.status).to.equal(201);
    await server.request('PATCH', `/booking/v1/bookings/${series.body.occurrences[1].id}`, { body: { title: 'Moved' } });
    await server.request('DELETE', `/booking/v1/resources/${gone}`);

    const live = await snapshot();
    expect(live.resources).to.have.length(3);
    expect(live.bookings.length).to.be.greaterThan(10);
    expect(live.timers.length).to.be.greaterThan(5);
    expect(room).to.be.a('string');

    const { events } = await rebuildReadModels(server.database.db);
    expect(events).to.be.greaterThan(20);
    expect(await snapshot()).to.deep.equal(live);
  });

  it('does not race creates running at the same time', async function () {
    if (!server.database.isServer) this.skip();
    await registerZone(server, 'rebuild-busy', { bookingPolicy: { maxAdvanceDays: 365 } });
    const creates = Array.from({ length: 40 }, (_, i) => {
      const start = new Date(Date.UTC(2027, 1, 1, 0, 30 * i)).toISOString();
      const end = new Date(Date.UTC(2027, 1, 1, 0, 30 * i + 30)).toISOString();
      return server.request('POST', '/booking/v1/bookings', { body: bookingBody('rebuild-busy', start, end) });
    });
    const [results] = await Promise.all([Promise.all(creates), rebuildReadModels(server.database.db)]);
    expect(results.every((r) => r.status === 201)).to.equal(true);
    const live = await snapshot();
    await rebuildReadModels(server.database.db);
    expect(await snapshot()).to.deep.equal(live);
  });
});
