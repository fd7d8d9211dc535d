import { expect } from 'chai';
import { logStart, type RecordedEvent } from '../../src/infra/event-store/event-store.js';
import { readLog } from '../../src/infra/event-store/postgres-event-store.js';
import { bookingsProjector } from '../../src/projections/booking/bookings-projector.js';
import { bookingBody, registerZone, setClock } from '../api/booking/booking-api.js';
import { tableSnapshot } from '../support/read-model-snapshot.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('the bookings read model', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
  });
  after(() => server.stop());

  const table = () => tableSnapshot(server.database.db, 'bookings');

  /**
   * Every event of this database, as the rebuild reads them: nothing writes here meanwhile, so the
   * late-commit horizon (which a transaction open in another database on a shared server holds back)
   * would only make the test wait on strangers.
   */
  async function everyEvent(): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    for (let after = logStart; ; ) {
      const { events: batch, next } = await readLog(server.database.db, { after, maxCount: 500, horizon: false });
      if (batch.length === 0) return events;
      events.push(...batch);
      after = next;
    }
  }

  it('rebuilt from the log equals the live one, one event at a time or all at once, and applying the log again changes nothing', async () => {
    const alice = server.token({ level: 'LV4', sub: 'alice' });
    const admin = server.token({ level: 'LV2', sub: 'admin' });
    await registerZone(server, 'zone-r', { bookingPolicy: { autoConfirm: false } });
    const ids: string[] = [];
    for (let hour = 9; hour < 14; hour++) {
      const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('zone-r', `2027-01-05T${String(hour).padStart(2, '0')}:00:00Z`, `2027-01-05T${String(hour).padStart(2, '0')}:30:00Z`), token: alice });
      ids.push(res.body.id);
    }
    await server.request('PATCH', `/booking/v1/bookings/${ids[0]}/confirm`, { token: admin });
    await server.request('PATCH', `/booking/v1/bookings/${ids[1]}/cancel`, { token: alice, body: { reason: 'no' } });
    await server.request('PATCH', `/booking/v1/bookings/${ids[2]}`, { token: alice, body: { startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T08:45:00Z' } });
    await server.request('PATCH', `/booking/v1/bookings/${ids[3]}/confirm`, { token: admin });
    await server.request('PATCH', `/booking/v1/bookings/${ids[3]}/checkout`, { token: alice });
    const live = await table();
    expect(live).to.have.length(5);

    const events = (await everyEvent()).filter((e) => bookingsProjector.handles.has(e.type));
    await server.database.db.deleteFrom('bookings').execute();
    await server.database.db.transaction().execute(async (trx) => {
      for (const event of events) await bookingsProjector.apply(trx, [event]);
    });
    expect(await table()).to.deep.equal(live);
    await server.database.db.transaction().execute((trx) => bookingsProjector.apply(trx, events));
    expect(await table()).to.deep.equal(live);
    await server.database.db.deleteFrom('bookings').execute();
    await server.database.db.transaction().execute((trx) => bookingsProjector.apply(trx, events));
    expect(await table()).to.deep.equal(live);
  });
});
