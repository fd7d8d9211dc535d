import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { startRequestRecordsCleanup } from '../../../src/workers/request-records/start-request-records-cleanup.js';
import { workerOptionsFor } from '../../../src/workers/worker-options.js';
import { bookingBody, registerZone, setClock } from '../../api/booking/booking-api.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { fastWorkerOptions, waitFor } from '../worker-test-kit.js';

describe('the request records cleanup', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it('deletes Idempotency-Key answers older than 24 hours and idle rate-limit buckets, and keeps the rest', async () => {
    const { db } = server.database;
    await registerZone(server, 'zone-clean');
    const create = (key: string, hour: number) =>
      server.request('POST', '/booking/v1/bookings', {
        body: bookingBody('zone-clean', `2027-01-10T${String(hour).padStart(2, '0')}:00:00Z`, `2027-01-10T${String(hour).padStart(2, '0')}:30:00Z`),
        headers: { 'idempotency-key': key },
      });
    setClock(server, '2027-01-04T08:00:00Z');
    expect((await create('old', 9)).status).to.equal(201);
    setClock(server, '2027-01-05T07:00:00Z');
    expect((await create('recent', 10)).status).to.equal(201);
    await db.insertInto('rate_limit_buckets').values({ key: 'sub:idle', tokens: 3, updated_at: new Date(Date.now() - 10 * 60_000), taken: 1 }).execute();
    await db.insertInto('rate_limit_buckets').values({ key: 'sub:busy', tokens: 3, updated_at: new Date(), taken: 1 }).execute();

    setClock(server, '2027-01-05T08:00:01Z');
    const loop = startRequestRecordsCleanup(server.services, workerOptionsFor(server.services.config, { ...fastWorkerOptions, requestRecordsCleanupIntervalMs: 50 }));
    try {
      const keys = () => db.selectFrom('idempotency_keys').select('key').execute();
      await waitFor(async () => (await keys()).length === 1, { what: 'the expired key to go' });
      expect((await keys()).map((row) => row.key)).to.deep.equal(['recent']);
      await waitFor(async () => (await db.selectFrom('rate_limit_buckets').select('key').where('key', '=', 'sub:idle').execute()).length === 0, { what: 'the idle bucket to go' });
      const buckets = await db.selectFrom('rate_limit_buckets').select('key').where('key', 'like', 'sub:%').orderBy('key').execute();
      expect(buckets.map((row) => row.key)).to.include('sub:busy');
    } finally {
      await loop.stop();
      setClock(server, Temporal.Now.instant().toString());
    }
  });
});
