import { expect } from 'chai';
import { startTestServerOnStubbedEventStoreDb, type StubbedEventStoreDb } from '../../support/stubbed-eventstoredb.js';
import type { TestServer } from '../../support/test-server.js';
import { registerZone, setClock } from './booking-api.js';

describe('bundles and combined rooms with EVENT_STORE=eventstoredb (contract §22)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let esdb: StubbedEventStoreDb;

  before(async () => {
    ({ server, esdb } = await startTestServerOnStubbedEventStoreDb());
    setClock(server, '2027-01-04T08:00:00Z');
  });
  after(async () => {
    await server?.stop();
    esdb?.restore();
  });

  it('answers 503 naming the store, writing nothing: no transaction spans EventStoreDB streams', async () => {
    for (const zone of ['zone-e1', 'zone-e2']) await registerZone(server, zone, { bookingPolicy: { maxAdvanceDays: 365 } });
    const items = ['zone-e1', 'zone-e2'].map((resourceId) => ({ resourceType: 'zone', resourceId }));
    const res = await server.request('POST', '/booking/v1/bundles', { body: { title: 'Board', startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z', items } });
    expect(res.status, JSON.stringify(res.body)).to.equal(503);
    expect(res.body.message).to.match(/EVENT_STORE=postgres/);
    expect(esdb.events().filter((e) => e.type === 'BookingCreated')).to.deep.equal([]);
    expect(await server.database.db.selectFrom('bookings').select('id').execute()).to.deep.equal([]);
  });

  it('refuses parts with 503 naming the store, on registration and PATCH, writing nothing: their guard runs in the PostgreSQL append', async () => {
    const half = await registerZone(server, 'zone-e3', { bookingPolicy: { maxAdvanceDays: 365 } });
    const other = await registerZone(server, 'zone-e4', { bookingPolicy: { maxAdvanceDays: 365 } });
    const { seedZone } = await import('../../support/device-records.js');
    await seedZone(server.database.db, server.workspace, 'zone-e5');
    const registered = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: 'zone-e5', parts: [half] } });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(503);
    expect(registered.body.message).to.match(/EVENT_STORE=postgres/);
    const patched = await server.request('PATCH', `/booking/v1/resources/${other}`, { body: { parts: [half] } });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(503);
    expect((await server.request('GET', `/booking/v1/resources/${other}`)).body.parts).to.equal(null);
    expect(esdb.events().filter((e) => (e.type === 'ResourceRegistered' && (e.data as { resourceId?: string }).resourceId === 'zone-e5') || e.type === 'ResourceUpdated')).to.deep.equal([]);
  });
});
