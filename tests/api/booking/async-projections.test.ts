import { expect } from 'chai';
import { sql } from 'kysely';
import { seedZone } from '../../support/device-records.js';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';
import { platformKey } from '../../support/test-keys.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone } from './booking-api.js';

async function call(url: string, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const inDays = (days: number, hour: number) => new Date(Date.UTC(2030, 0, 1 + days, hour)).toISOString().replace('.000Z', 'Z');

describe('read models that follow the log (PROJECTIONS=async)', function () {
  this.timeout(120_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ PROJECTIONS: 'async', PROJECTION_WAIT_MS: '1500' });
  });
  after(() => server.stop());

  it('answers a write once its read models have passed it: the next read sees it', async () => {
    const zoneId = 'zone-ryw';
    await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 3650 } });
    for (let day = 0; day < 5; day++) {
      const created = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, inDays(day, 9), inDays(day, 10)) });
      expect(created.status).to.equal(201);
      expect((await server.request('GET', `/booking/v1/bookings/${created.body.id}`)).status).to.equal(200);
    }
  });

  it('answers 503 in the error shape when the read models cannot pass an append in time, and they catch up after', async function () {
    if (!server.database.isServer) this.skip(); // the embedded database has one connection: nothing can hold the runner back
    const zoneId = 'zone-held';
    await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 3650 } });
    let answer: { status: number; body: any } | undefined;
    // A transaction holding the runner's checkpoint row keeps it from committing any batch.
    await server.database.db.transaction().execute(async (trx) => {
      await sql`select 1 from processor_checkpoints where name = 'projections' for update`.execute(trx);
      answer = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, inDays(10, 9), inDays(10, 10)) });
    });
    expect(answer!.status).to.equal(503);
    expect(answer!.body).to.have.keys(['statusCode', 'message']);
    expect(answer!.body.statusCode).to.equal(503);
    // The append committed; once free, the runner brings the read model to it.
    const deadline = Date.now() + 10_000;
    let listed: any[] = [];
    while (Date.now() < deadline && listed.length === 0) {
      listed = (await server.request('GET', `/booking/v1/bookings?resourceId=${zoneId}`)).body.data ?? [];
      if (listed.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(listed.map((b) => b.startTime)).to.deep.equal([inDays(10, 9)]);
  });

  describe('in three service processes', () => {
    let processes: ServiceProcess[] = [];

    before(async function () {
      if (!server.database.isServer) this.skip();
      processes = await Promise.all(
        [1, 2, 3].map(() =>
          startServiceProcess({
            ...server.database.env,
            APP_ENV: 'production',
            PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
            DATA_DIR: `/tmp/booking-test-${process.pid}-async`,
            DB_POOL_SIZE: '10',
            PROJECTIONS: 'async',
          }),
        ),
      );
    });
    after(() => Promise.all(processes.map((p) => p.stop())));

    it('a write answered by one process is read at once from the others, whichever runs the projections', async () => {
      const token = server.token({ level: 'LV2' });
      const zoneId = 'zone-spread';
      await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 3650 } });
      for (let i = 0; i < 9; i++) {
        const writer = processes[i % 3]!;
        const created = await call(writer.url, 'POST', '/booking/v1/bookings', token, bookingBody(zoneId, inDays(20 + i, 9), inDays(20 + i, 10)));
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        for (const reader of processes) {
          expect((await call(reader.url, 'GET', `/booking/v1/bookings/${created.body.id}`, token)).status).to.equal(200);
        }
      }
      // Every process tells where the shared checkpoint stands, the active runner's and the standing-by ones alike.
      const reports = await Promise.all(processes.map((p) => call(p.url, 'GET', '/booking/v1/health', token)));
      expect(reports.map((r) => r.status)).to.deep.equal([200, 200, 200]);
      const runner = reports.map((r) => r.body.info.workers.processors.projections);
      expect(runner[0].lagEvents).to.equal(0);
      const checkpoint = ({ position, lagEvents }: { position: number; lagEvents: number }) => ({ position, lagEvents });
      expect(runner.map(checkpoint)).to.deep.equal([checkpoint(runner[0]), checkpoint(runner[0]), checkpoint(runner[0])]);
      // One runner is active among these processes and the test's own server: the others stand by.
      expect(runner.filter((r) => r.active).length).to.be.at.most(1);
      for (const r of runner) expect(r.active).to.be.a('boolean');
    });

    it('a registration is unique across processes: 30 racing registrations, one 201', async () => {
      const token = server.token({ level: 'LV2' });
      const zoneId = 'zone-raced';
      await seedZone(server.database.db, server.workspace, zoneId);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => call(processes[i % 3]!.url, 'POST', '/booking/v1/resources', token, { resourceType: 'zone', resourceId: zoneId })),
      );
      expect(answers.filter((a) => a.status === 201)).to.have.length(1);
      expect(answers.filter((a) => a.status === 409), JSON.stringify(answers.find((a) => a.status !== 201 && a.status !== 409))).to.have.length(29);
    });
  });
});
