import { sql } from 'kysely';
import { expect } from 'chai';
import type { ServiceProcess } from '../../support/service-process.js';
import { postJson, startSiblingProcesses } from '../../support/sibling-processes.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone } from './booking-api.js';

type Answer = { status: number; body: any };

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('a quota under concurrency: one booker on many resources from two service processes', function () {
  this.timeout(180_000);
  let server: TestServer;
  let processes: ServiceProcess[] = [];
  const zones: string[] = [];
  const resources = 24;

  before(async function () {
    // With PROJECTIONS=async the usage re-read under the booker's lock reads a read model that may
    // trail the log, so the quota is only as good as that lag (docs/booking.md, "Quotas"): inline only.
    if (process.env.PROJECTIONS === 'async') this.skip();
    server = await startTestServer();
    if (!server.database.isServer) this.skip(); // the embedded database has one connection in one process
    for (let i = 0; i < resources; i++) {
      zones.push(`race-zone-${i}`);
      await registerZone(server, zones[i]!, { bookingPolicy: { maxAdvanceDays: 365 } });
    }
    processes = await startSiblingProcesses(server, 2, 'quota-children');
  });
  after(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await server?.stop();
  });

  // The children run on the real clock: a UTC day a month ahead, every booking inside it.
  const base = Math.ceil((Date.now() + 30 * day) / day) * day;
  const admin = () => server.token({ level: 'LV2', sub: 'admin' });

  /** Every zone booked at once by `booker`, on day `dayIndex` after `base` (each test a day of its own: no conflicts). */
  async function race(booker: string, minutes: number, dayIndex: number): Promise<Answer[]> {
    const token = server.token({ level: 'LV4', sub: booker });
    return Promise.all(
      zones.map((zoneId, i) => {
        const start = base + dayIndex * day + 9 * 3_600_000 + (i % 6) * 15 * 60_000;
        return postJson(processes[i % 2]!.url, '/booking/v1/bookings', bookingBody(zoneId, iso(start), iso(start + minutes * 60_000)), token);
      }),
    );
  }

  const storedOf = (booker: string) =>
    server.database.db.selectFrom('bookings').select(['start_time', 'end_time']).where('booker_profile_id', '=', booker).where('status', 'in', ['pending', 'confirmed']).execute();

  function expectOnlyQuotaRefusals(answers: Answer[], quotaId: string, accepted: number) {
    const others = answers.filter((a) => a.status !== 201 && a.status !== 422);
    expect(others, JSON.stringify(others.slice(0, 3))).to.deep.equal([]);
    expect(answers.filter((a) => a.status === 201)).to.have.length(accepted);
    for (const refused of answers.filter((a) => a.status === 422)) expect(refused.body).to.include({ policy: 'quota', quotaId });
  }

  it(`${resources} simultaneous creates against a quota of 5 bookings a day: exactly 5 stand, the rest 422 quota`, async () => {
    const quota = await postJson(server.url, '/booking/v1/quotas', { limit: 5, unit: 'bookings', per: 'day' }, admin());
    expect(quota.status).to.equal(201);
    const answers = await race('racer-count', 30, 0);
    expectOnlyQuotaRefusals(answers, quota.body.id, 5);
    expect(await storedOf('racer-count')).to.have.length(5);
    // The usage seen travels to the hold in the append's statement and is not stored.
    const { rows } = await sql<{ n: string }>`select count(*) as n from events where metadata ? 'quotaSeen'`.execute(server.database.db);
    expect(Number(rows[0]!.n)).to.equal(0);
    expect((await server.request('DELETE', `/booking/v1/quotas/${quota.body.id}`)).status).to.equal(204);
  });

  it(`${resources} simultaneous creates against 5 bookings a week, 3 of them booked on its Monday: exactly 2 more stand on its Sunday`, async () => {
    // Six days before the race: outside a day's counting margin, inside a week's (quota-bookings.sql), in the state and in the hold.
    const sunday = 10 + [0, 1, 2, 3, 4, 5, 6].find((d) => new Date(base + (10 + d) * day).getUTCDay() === 0)!;
    const quota = await postJson(server.url, '/booking/v1/quotas', { limit: 5, unit: 'bookings', per: 'week' }, admin());
    expect(quota.status).to.equal(201);
    const token = server.token({ level: 'LV4', sub: 'racer-week' });
    for (let i = 0; i < 3; i++) {
      const start = base + (sunday - 6) * day + (9 + i) * 3_600_000;
      expect((await postJson(processes[i % 2]!.url, '/booking/v1/bookings', bookingBody(zones[i]!, iso(start), iso(start + 30 * 60_000)), token)).status).to.equal(201);
    }
    const answers = await race('racer-week', 30, sunday);
    expectOnlyQuotaRefusals(answers, quota.body.id, 2);
    expect(await storedOf('racer-week')).to.have.length(5);
    expect((await server.request('DELETE', `/booking/v1/quotas/${quota.body.id}`)).status).to.equal(204);
  });

  it(`${resources} simultaneous 45-minute creates against 3 hours a day: the stored hours never pass 3`, async () => {
    const quota = await postJson(server.url, '/booking/v1/quotas', { limit: 3, unit: 'hours', per: 'day', resourceType: 'zone' }, admin());
    expect(quota.status).to.equal(201);
    const answers = await race('racer-hours', 45, 1);
    expectOnlyQuotaRefusals(answers, quota.body.id, 4);
    const stored = await storedOf('racer-hours');
    const hours = stored.reduce((sum, b) => sum + (b.end_time.getTime() - b.start_time.getTime()) / 3_600_000, 0);
    expect(hours).to.equal(3);
    expect((await server.request('DELETE', `/booking/v1/quotas/${quota.body.id}`)).status).to.equal(204);
  });
});
