import { expect } from 'chai';
import type { ServiceProcess } from '../../support/service-process.js';
import { postJson, startSiblingProcesses } from '../../support/sibling-processes.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone } from './booking-api.js';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * Contract §19: a valid write never answers 5xx because others write the same stream at the same
 * moment. Writers of one stream in several processes take turns on PostgreSQL instead of racing
 * each other's optimistic retries to exhaustion.
 */
describe('a hot stream: many processes creating on one resource at once', function () {
  this.timeout(240_000);
  let server: TestServer;
  let processes: ServiceProcess[] = [];

  before(async function () {
    server = await startTestServer();
    if (!server.database.isServer) return this.skip(); // the embedded database serves one process
    processes = await startSiblingProcesses(server, 2, 'hot');
  });
  after(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await server?.stop();
  });

  for (const round of [1, 2, 3]) {
    it(`128 concurrent creates of distinct slots on one resource over 2 processes: 128 × 201, no overlap (round ${round})`, async () => {
      const zoneId = `zone-hot-${round}`;
      const id = await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 3650 } });
      const base = Math.ceil((Date.now() + 30 * day) / day) * day;
      const answers = await Promise.all(
        Array.from({ length: 128 }, (_, i) => {
          const start = base + i * 3_600_000;
          return postJson(processes[i % 2]!.url, '/booking/v1/bookings', bookingBody(zoneId, iso(start), iso(start + 3_600_000)), server.token({ level: 'LV4', sub: `hot-user-${i}` }));
        }),
      );
      const failed = answers.filter((a) => a.status !== 201);
      expect(failed.length, JSON.stringify(failed.slice(0, 3))).to.equal(0);
      const rows = await server.database.db
        .selectFrom('bookings')
        .select(['start_time', 'end_time'])
        .where('bookable_resource_id', '=', id)
        .orderBy('start_time')
        .execute();
      expect(rows).to.have.length(128);
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.start_time.getTime()).to.be.at.least(rows[i - 1]!.end_time.getTime());
    });
  }
});
