import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import sinon from 'sinon';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { startTestServerOnStubbedEventStoreDb, stubbedConnectionString, type StubbedEventStoreDb } from '../support/stubbed-eventstoredb.js';
import { mintToken, platformKey } from '../support/test-keys.js';
import type { TestServer } from '../support/test-server.js';
import { bookingBody, registerZone } from './booking/booking-api.js';

// No EventStoreDB server runs here: the client is replaced at its edge (connectionString), and
// everything behind it (the adapter, the runner, the read models in PostgreSQL) is the real one.
describe('EVENT_STORE=eventstoredb (the client stubbed at its edge)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let esdb: StubbedEventStoreDb;

  before(async () => {
    ({ server, esdb } = await startTestServerOnStubbedEventStoreDb());
  });
  after(async () => {
    await server?.stop();
    esdb?.restore();
  });

  it('connects with the configured connection string', () => {
    expect((EventStoreDBClient.connectionString as sinon.SinonStub).calledOnceWithExactly(stubbedConnectionString)).to.equal(true);
  });

  it('appends to EventStoreDB and answers from the read models in PostgreSQL that follow its $all', async () => {
    const zoneId = 'zone-esdb';
    const resourceId = await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 3650 } });
    const created = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, '2030-03-01T09:00:00Z', '2030-03-01T10:00:00Z') });
    expect(created.status).to.equal(201);
    expect((await server.request('GET', `/booking/v1/bookings/${created.body.id}`)).status).to.equal(200);
    const overlapping = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, '2030-03-01T09:30:00Z', '2030-03-01T10:30:00Z') });
    expect(overlapping.status).to.equal(409);

    expect(esdb.events().map((e) => [e.streamId, e.type])).to.deep.include.members([
      [`registration-${server.workspace}/zone/${zoneId}`, 'RegistrationReserved'],
      [`resource-${resourceId}`, 'ResourceRegistered'],
      [`resource-${resourceId}`, 'BookingCreated'],
    ]);
    // Only the zone record the test seeded directly is in PostgreSQL's log.
    const local = await server.database.db.selectFrom('events').select('event_type').execute();
    expect(local.map((e) => e.event_type)).to.deep.equal(['ZoneCreated']);
    const checkpoint = await server.database.db.selectFrom('processor_checkpoints').select('transaction_id').where('name', '=', 'projections').executeTakeFirstOrThrow();
    expect(String(checkpoint.transaction_id)).to.equal(String(esdb.events().at(-1)!.position.commit));
  });
});

// A real service process (the test harness may load a module twice; a process loads it once).
describe('EVENT_STORE=eventstoredb: a server that cannot be reached', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let service: ServiceProcess;

  before(async function () {
    database = await createTestDatabase();
    if (!database.isServer) this.skip();
    service = await startServiceProcess({
      ...database.env,
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      EVENT_STORE: 'eventstoredb',
      EVENTSTORE_CONNECTION_STRING: 'esdb://127.0.0.1:1?tls=false',
      WEB_CONCURRENCY: '1',
    });
  });
  after(async () => {
    await service?.stop();
    await database?.destroy();
  });

  it('answers 503 in the error shape while EventStoreDB cannot be reached, and stays up', async () => {
    const workspace = '0b9a4a8e-3f6c-4d2a-9d8e-1c2b3a4d5e6f';
    const answer = await fetch(`${service.url}/device/v1/zones`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mintToken({ level: 'LV2', workspace })}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'zone-refused', name: 'Refused', parentZoneId: null, workspace }),
    });
    const body = (await answer.json()) as { statusCode: number; message: string };
    expect(answer.status, JSON.stringify(body)).to.equal(503);
    expect(body.statusCode).to.equal(503);
    expect(body.message).to.include('EventStoreDB is unavailable');
    expect((await fetch(`${service.url}/booking/v1/health`)).status).to.be.oneOf([200, 503]);
    expect(service.child.exitCode).to.equal(null);
  });
});
