import { expect } from 'chai';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';
import { platformKey } from '../../support/test-keys.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { registerZone } from './booking-api.js';

type Answer = { status: number; body: any };

async function postSeries(url: string, body: unknown, token: string): Promise<Answer> {
  const res = await fetch(`${url}/booking/v1/bookings/bulk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const minutes = (iso: string, offset: number) => new Date(Date.parse(iso) + offset * 60_000).toISOString().replace('.000Z', 'Z');

describe('concurrent series creation on one resource', function () {
  this.timeout(120_000);
  let server: TestServer;
  let tokens: string[];
  let zone = 0;

  before(async () => {
    server = await startTestServer();
    tokens = Array.from({ length: 10 }, (_, i) => server.token({ level: 'LV4', sub: `user-${i}` }));
  });
  after(() => server.stop());

  const freshZone = async () => {
    zone += 1;
    const zoneId = `zone-sc${zone}`;
    return { zoneId, id: await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 3650 } }) };
  };

  /** Weekly series of ten, one hour long, starting `offset` minutes after Monday 2027-03-01 09:00Z. */
  const weekly = (zoneId: string, offset: number) => ({
    resourceType: 'zone',
    resourceId: zoneId,
    title: `Series ${offset}`,
    startTime: minutes('2027-03-01T09:00:00Z', offset),
    endTime: minutes('2027-03-01T10:00:00Z', offset),
    recurrenceRule: 'FREQ=WEEKLY;COUNT=10',
  });

  async function activeOccurrences(resourceUuid: string) {
    return server.database.db
      .selectFrom('bookings')
      .select(['id', 'start_time', 'end_time', 'recurrence_parent_id'])
      .where('bookable_resource_id', '=', resourceUuid)
      .where('is_series_parent', '=', false)
      .where('status', 'in', ['pending', 'confirmed'])
      .orderBy('start_time')
      .execute();
  }

  async function parents(resourceUuid: string) {
    return server.database.db.selectFrom('bookings').select('id').where('bookable_resource_id', '=', resourceUuid).where('is_series_parent', '=', true).execute();
  }

  function expectNoOverlap(rows: { start_time: Date; end_time: Date }[]) {
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.start_time.getTime()).to.be.at.least(rows[i - 1]!.end_time.getTime());
  }

  function expectOneWinner(answers: Answer[]) {
    const created = answers.filter((a) => a.status === 201);
    expect(created, JSON.stringify(answers.filter((a) => a.status !== 409 && a.status !== 201))).to.have.length(1);
    expect(answers.filter((a) => a.status === 409), JSON.stringify(answers.filter((a) => a.status !== 409 && a.status !== 201))).to.have.length(answers.length - 1);
    const winners = new Set(created[0]!.body.occurrences.map((b: { id: string }) => b.id));
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body.conflicts).to.have.length(10);
      for (const conflict of refused.body.conflicts) expect(winners.has(conflict.bookingId)).to.equal(true);
    }
    return created[0]!.body;
  }

  it('10 overlapping series at once: exactly one 201, the others 409, no overlap stored', async () => {
    const { zoneId, id } = await freshZone();
    const answers = await Promise.all(tokens.map((token, i) => postSeries(server.url, weekly(zoneId, i * 5), token)));
    const winner = expectOneWinner(answers);
    const rows = await activeOccurrences(id);
    expect(rows).to.have.length(10);
    expect(new Set(rows.map((r) => r.recurrence_parent_id))).to.deep.equal(new Set([winner.parent.id]));
    expectNoOverlap(rows);
    expect(await parents(id)).to.have.length(1);
  });

  it('10 disjoint series at once: all 201, every occurrence stored once', async () => {
    const { zoneId, id } = await freshZone();
    const answers = await Promise.all(tokens.map((token, i) => postSeries(server.url, weekly(zoneId, i * 60), token)));
    expect(answers.map((a) => a.status)).to.deep.equal(answers.map(() => 201));
    const rows = await activeOccurrences(id);
    expect(rows).to.have.length(100);
    expectNoOverlap(rows);
  });

  describe('from three service processes on one database', () => {
    let processes: ServiceProcess[] = [];

    before(async function () {
      if (!server.database.isServer) this.skip(); // the embedded database has one connection in one process
      processes = await Promise.all(
        [1, 2, 3].map(() =>
          startServiceProcess({
            ...server.database.env,
            APP_ENV: 'production',
            PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
            DATA_DIR: `/tmp/booking-test-${process.pid}-series`,
            WEB_CONCURRENCY: '1',
          }),
        ),
      );
    });
    after(() => Promise.all(processes.map((p) => p.stop())));

    it('10 overlapping series racing: exactly one 201, no overlap stored', async () => {
      const { zoneId, id } = await freshZone();
      const answers = await Promise.all(tokens.map((token, i) => postSeries(processes[i % 3]!.url, weekly(zoneId, i * 5), token)));
      expectOneWinner(answers);
      const rows = await activeOccurrences(id);
      expect(rows).to.have.length(10);
      expectNoOverlap(rows);
      expect(await parents(id)).to.have.length(1);
    });
  });
});
