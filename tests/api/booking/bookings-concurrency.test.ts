import { expect } from 'chai';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';
import { platformKey } from '../../support/test-keys.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

type Answer = { status: number; body: any };

/** The service in a process of its own on the test database (one HTTP process, not a cluster). */
const startChild = (server: TestServer) =>
  startServiceProcess({
    ...server.database.env,
    APP_ENV: 'production',
    PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
    DATA_DIR: `/tmp/booking-test-${process.pid}-children`,
    DB_POOL_SIZE: '10',
    WEB_CONCURRENCY: '1',
  });

async function post(url: string, body: unknown, token: string): Promise<Answer> {
  const res = await fetch(`${url}/booking/v1/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const day = 86_400_000;
/** A day start far enough ahead of the clock `now` that every booking below lies in the future. */
const dayAfter = (now: number) => Math.ceil((now + 30 * day) / day) * day;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** Hour `i` of a day, 100 hours in a row from `base`. */
const hour = (base: number, i: number, minutes = 60) => [iso(base + i * 3_600_000), iso(base + i * 3_600_000 + minutes * 60_000)] as const;

describe('concurrent bookings', function () {
  this.timeout(120_000);
  let server: TestServer;
  let zone = 0;
  const users = Array.from({ length: 100 }, (_, i) => `user-${i}`);
  let tokens: string[];

  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
    tokens = users.map((sub) => server.token({ level: 'LV4', sub }));
  });
  after(() => server.stop());

  const freshZone = async () => {
    zone += 1;
    const zoneId = `zone-c${zone}`;
    return { zoneId, id: await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 3650 } }) };
  };

  async function storedBookings(resourceUuid: string) {
    return server.database.db
      .selectFrom('bookings')
      .select(['id', 'start_time', 'end_time', 'status'])
      .where('bookable_resource_id', '=', resourceUuid)
      .orderBy('start_time')
      .execute();
  }

  function expectOneWinner(answers: Answer[], [startTime, endTime]: readonly [string, string]) {
    const created = answers.filter((a) => a.status === 201);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(created, JSON.stringify(answers.filter((a) => a.status !== 201 && a.status !== 409).slice(0, 3))).to.have.length(1);
    expect(conflicts, JSON.stringify(answers.filter((a) => a.status !== 201 && a.status !== 409).slice(0, 3))).to.have.length(99);
    for (const answer of conflicts) {
      expect(answer.body.conflicts).to.deep.equal([{ bookingId: created[0]!.body.id, startTime, endTime }]);
    }
  }

  function expectNoOverlap(rows: { start_time: Date; end_time: Date }[]) {
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.start_time.getTime()).to.be.at.least(rows[i - 1]!.end_time.getTime());
  }

  describe('in one service process', () => {
    const base = dayAfter(Date.parse('2027-01-04T08:00:00Z'));

    it('100 users creating the same slot at once: exactly one 201, 99 × 409, one row', async () => {
      const { zoneId, id } = await freshZone();
      const slot = hour(base, 9);
      const answers = await Promise.all(tokens.map((token) => post(server.url, bookingBody(zoneId, ...slot), token)));
      expectOneWinner(answers, slot);
      expect(await storedBookings(id)).to.have.length(1);
    });

    it('100 disjoint bookings of one resource at once: 100 × 201', async () => {
      const { zoneId, id } = await freshZone();
      const answers = await Promise.all(tokens.map((token, i) => post(server.url, bookingBody(zoneId, ...hour(base, i)), token)));
      expect(answers.map((a) => a.status)).to.deep.equal(answers.map(() => 201));
      const rows = await storedBookings(id);
      expect(rows).to.have.length(100);
      expectNoOverlap(rows);
      const stream = await server.database.db.selectFrom('streams').select('stream_revision').where('stream_id', '=', `resource-${id}`).executeTakeFirstOrThrow();
      expect(stream.stream_revision).to.equal(100);
    });
  });

  it('the read model’s exclusion constraint refuses an overlap that skipped the decision', async function () {
    // Only when the read models are written in the append's transaction: with PROJECTIONS=async
    // the decision at the stream's revision is the guard, and the constraint holds in the runner.
    if (server.services.config.projections === 'async') this.skip();
    const { zoneId, id } = await freshZone();
    const first = await post(server.url, bookingBody(zoneId, '2027-02-01T09:00:00Z', '2027-02-01T10:00:00Z'), tokens[0]!);
    expect(first.status).to.equal(201);
    const stored = await server.database.db.selectFrom('events').select('data').where('stream_id', '=', `resource-${id}`).where('event_type', '=', 'BookingCreated').executeTakeFirstOrThrow();
    const booking = { ...(stored.data as any).booking, id: '0b0b0b0b-0000-4000-8000-000000000001', startTime: '2027-02-01T09:30:00Z', endTime: '2027-02-01T10:30:00Z' };
    // Written to another stream, the revision check of the resource's stream cannot see it.
    const sneaky = server.services.eventStore.appendToStream('elsewhere', [{ type: 'BookingCreated', data: { booking, by: 'test', at: booking.createdAt } }], 'any');
    const error = await sneaky.then(() => null, (e: unknown) => e as { code?: string; constraint?: string });
    expect(error).to.include({ code: '23P01', constraint: 'bookings_no_overlap' });
  });

  describe('spread over three service processes on one database', () => {
    let processes: ServiceProcess[] = [];

    before(async function () {
      if (!server.database.isServer) this.skip(); // the embedded database has one connection in one process
      processes = await Promise.all([1, 2, 3].map(() => startChild(server)));
    });
    after(() => Promise.all(processes.map((p) => p.stop())));

    // The children run on the real clock.
    const base = dayAfter(Date.now());

    it('100 users creating the same slot: exactly one 201, 99 × 409, one row', async () => {
      const { zoneId, id } = await freshZone();
      const slot = hour(base, 9);
      const answers = await Promise.all(tokens.map((token, i) => post(processes[i % 3]!.url, bookingBody(zoneId, ...slot), token)));
      expectOneWinner(answers, slot);
      expect(await storedBookings(id)).to.have.length(1);
    });

    it('100 disjoint bookings of one resource: 100 × 201, no overlap stored', async () => {
      const { zoneId, id } = await freshZone();
      const answers = await Promise.all(tokens.map((token, i) => post(processes[i % 3]!.url, bookingBody(zoneId, ...hour(base, i)), token)));
      expect(answers.map((a) => a.status), JSON.stringify(answers.find((a) => a.status !== 201))).to.deep.equal(answers.map(() => 201));
      const rows = await storedBookings(id);
      expect(rows).to.have.length(100);
      expectNoOverlap(rows);
    });

    it('overlapping bookings racing from three processes never both win', async () => {
      const { zoneId, id } = await freshZone();
      // Each request overlaps its neighbours by half an hour: at most every other one can succeed.
      const answers = await Promise.all(
        tokens.map((token, i) => post(processes[i % 3]!.url, bookingBody(zoneId, ...hour(base, i / 2)), token)),
      );
      expect(answers.every((a) => a.status === 201 || a.status === 409)).to.equal(true);
      const rows = await storedBookings(id);
      expect(rows).to.have.length(answers.filter((a) => a.status === 201).length);
      expectNoOverlap(rows);
    });
  });
});
