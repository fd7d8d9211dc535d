import { expect } from 'chai';
import { eventStoreDbPages } from '../../src/infra/event-store/eventstoredb-all-pages.js';
import { rebuildReadModels } from '../../src/projections/rebuild-read-models.js';
import { projectionsCheckpointOnAll } from '../support/projections-checkpoint.js';
import { snapshotOf } from '../support/read-model-snapshot.js';
import { startTestServerOnStubbedEventStoreDb, type StubbedEventStoreDb } from '../support/stubbed-eventstoredb.js';
import type { TestServer } from '../support/test-server.js';
import { bookingBody, setClock } from './booking/booking-api.js';
import { deviceBody } from './record/record-api.js';

// The EventStoreDB client is replaced at its edge by a fake single node; the rebuild, the runner
// and the read models in PostgreSQL are the real ones.
describe('EVENT_STORE=eventstoredb: rebuilding the read models from $all', function () {
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

  it('gives tables equal to the live ones, leaves the runner at the head, and later writes are projected once', async () => {
    const zone = (id: string) => ({ id, name: `Zone ${id}`, parentZoneId: null, workspace: server.workspace });
    expect((await server.request('POST', '/device/v1/zones', { body: zone('room-a') })).status).to.equal(201);
    expect((await server.request('POST', '/device/v1/zones', { body: zone('room-b') })).status).to.equal(201);
    expect((await server.request('POST', '/device/v1/devices', { body: deviceBody('d-1', server.workspace) })).status).to.equal(201);
    expect((await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: 'room-a' } })).status).to.equal(201);
    const booked = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('room-a', '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z') });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    expect((await server.request('PATCH', `/booking/v1/bookings/${booked.body.id}/cancel`, { body: { reason: 'moved' } })).status).to.equal(200);

    const live = await snapshotOf(server.database.db);
    const { events } = await rebuildReadModels(server.database.db, server.services.config, { eventStoreDb: eventStoreDbPages(esdb.client) });
    expect(events).to.equal(esdb.events().length);
    expect(await snapshotOf(server.database.db)).to.deep.equal(live);
    expect(await projectionsCheckpointOnAll(server.database.db)).to.deep.equal(esdb.events().at(-1)!.position);

    const again = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('room-a', '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z') });
    expect(again.status, JSON.stringify(again.body)).to.equal(201);
    const list = await server.request('GET', '/booking/v1/bookings?resourceId=room-a&status=confirmed');
    expect(list.body.data.map((b: { id: string }) => b.id)).to.deep.equal([again.body.id]);
  });
});
