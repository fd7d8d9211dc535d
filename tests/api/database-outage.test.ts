import { expect } from 'chai';
import { startServiceProcess } from '../support/service-process.js';
import { startTcpRelay, type TcpRelay } from '../support/tcp-relay.js';
import { createTestDatabase } from '../support/test-database.js';
import { platformKey } from '../support/test-keys.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitFor } from '../workers/worker-test-kit.js';
import { bookingBody, registerZone } from './booking/booking-api.js';

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe('a database outage seen over HTTP (PostgreSQL only)', () => {
  let relay: TcpRelay;
  let server: TestServer;

  before(async function () {
    if (!process.env.DB_HOST) this.skip();
    relay = await startTcpRelay({ host: process.env.DB_HOST!, port: Number(process.env.DB_PORT || 5432) });
    server = await startTestServer({ DB_HOST: '127.0.0.1', DB_PORT: String(relay.port) });
  });
  after(async () => {
    await relay?.accept().catch(() => undefined);
    await server?.stop();
    await relay?.close();
  });

  it('answers 503 to health and to requests while the database is unreachable, and 2xx within 5 s of its return', async function () {
    this.timeout(30_000);
    await registerZone(server, 'outage-zone');
    expect((await server.request('POST', '/booking/v1/bookings', { body: bookingBody('outage-zone', inHours(30), inHours(31)) })).status).to.equal(201);

    await relay.cutAndRefuse();
    const health = await server.request('GET', '/booking/v1/health', { token: null });
    expect(health.status).to.equal(503);
    expect(health.body).to.deep.include({ status: 'error', error: { database: { status: 'down' } } });
    const write = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('outage-zone', inHours(32), inHours(33)) });
    expect(write.status).to.equal(503);
    expect(write.body).to.have.all.keys('statusCode', 'message');
    expect(write.body.statusCode).to.equal(503);
    expect((await server.request('GET', '/booking/v1/bookings')).status).to.equal(503);

    await relay.accept();
    const back = Date.now();
    await waitFor(async () => (await server.request('GET', '/booking/v1/health', { token: null })).status === 200, { timeoutMs: 5_000, what: 'health 200' });
    expect((await server.request('POST', '/booking/v1/bookings', { body: bookingBody('outage-zone', inHours(32), inHours(33)) })).status).to.equal(201);
    expect(Date.now() - back).to.be.below(5_000);
  });

  it('a process started while the database is unreachable waits DB_CONNECT_TIMEOUT_SECONDS, then exits non-zero saying why', async function () {
    this.timeout(60_000);
    const database = await createTestDatabase();
    try {
      await relay.cutAndRefuse();
      const failure = await startServiceProcess({
        ...database.env,
        DB_HOST: '127.0.0.1',
        DB_PORT: String(relay.port),
        DB_CONNECT_TIMEOUT_SECONDS: '2',
        APP_ENV: 'production',
        PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      }).then(
        () => new Error('the service started'),
        (error: Error) => error,
      );
      expect(failure.message).to.match(/service exited with 1 before listening/);
      expect(failure.message).to.match(/unreachable \(try 2\); retrying/);
      expect(failure.message).to.match(/did not answer within DB_CONNECT_TIMEOUT_SECONDS=2/);
    } finally {
      await relay.accept();
      await database.destroy();
    }
  });
});
