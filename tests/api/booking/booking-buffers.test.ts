import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

// The service's clock stands at Monday 2027-01-04 08:00Z.
const monday = '2027-01-04T08:00:00Z';

describe('buffers over HTTP (contract §17)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let alice: string;
  let counter = 0;
  const freshZone = async (bookingPolicy: Record<string, unknown> = {}) => {
    counter += 1;
    const zoneId = `buffer-zone-${counter}`;
    return { zoneId, id: await registerZone(server, zoneId, { bookingPolicy }) };
  };
  const create = (zoneId: string, start: string, end: string) =>
    server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, start, end), token: alice });
  const setPolicy = (id: string, bookingPolicy: Record<string, unknown>) => server.request('PATCH', `/booking/v1/resources/${id}`, { body: { bookingPolicy } });

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
  });
  beforeEach(() => setClock(server, monday));
  after(() => server.stop());

  describe('the policy', () => {
    it('registers and patches buffers, 0 by default, and history names the changed fields', async () => {
      const { id } = await freshZone({ bufferAfterMinutes: 15 });
      const read = await server.request('GET', `/booking/v1/resources/${id}`);
      expect(read.body.bookingPolicy).to.include({ bufferBeforeMinutes: 0, bufferAfterMinutes: 15 });
      const patched = await setPolicy(id, { bufferBeforeMinutes: 1440 });
      expect(patched.status).to.equal(200);
      expect(patched.body.bookingPolicy).to.include({ bufferBeforeMinutes: 1440, bufferAfterMinutes: 15 });
      const history = await server.request('GET', `/booking/v1/resources/${id}/history`);
      const update = history.body.events.find((e: { type: string }) => e.type === 'ResourceUpdated');
      expect(update.data.changes.bookingPolicy).to.include({ bufferBeforeMinutes: 1440, bufferAfterMinutes: 15 });
    });

    for (const [field, value] of [
      ['bufferBeforeMinutes', -1],
      ['bufferAfterMinutes', 1441],
      ['bufferBeforeMinutes', 2.5],
      ['bufferAfterMinutes', '10'],
    ] as const) {
      it(`refuses ${field} = ${JSON.stringify(value)} with a 400 naming the field, on registration and on PATCH`, async () => {
        counter += 1;
        const registered = await server.request('POST', '/booking/v1/resources', {
          body: { resourceType: 'zone', resourceId: `bad-buffer-${counter}`, bookingPolicy: { [field]: value } },
        });
        expect(registered.status).to.equal(400);
        expect(JSON.stringify(registered.body)).to.include(field);
        const { id } = await freshZone();
        const patched = await setPolicy(id, { [field]: value });
        expect(patched.status).to.equal(400);
        expect(patched.body).to.include({ statusCode: 400 });
        expect(JSON.stringify(patched.body)).to.include(field);
      });
    }
  });

  describe('creating and rescheduling', () => {
    it('refuses a booking inside a neighbour’s after-buffer (409 naming the neighbour), and keeps that buffer after the policy changes', async () => {
      const { zoneId, id } = await freshZone({ bufferAfterMinutes: 30 });
      const first = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expect(first.status).to.equal(201);
      expect(first.body).to.include({ bufferBeforeMinutes: 0, bufferAfterMinutes: 30 });
      await setPolicy(id, { bufferAfterMinutes: 0 });
      const refused = await create(zoneId, '2027-01-05T10:15:00Z', '2027-01-05T11:00:00Z');
      expect(refused.status).to.equal(409);
      expect(refused.body.conflicts).to.deep.equal([{ bookingId: first.body.id, startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z' }]);
      const read = await server.request('GET', `/booking/v1/bookings/${first.body.id}`, { token: alice });
      expect(read.body).to.include({ bufferAfterMinutes: 30 });
      expect((await create(zoneId, '2027-01-05T10:30:00Z', '2027-01-05T11:00:00Z')).status).to.equal(201);
    });

    it('refuses a booking whose own before-buffer reaches a neighbour (409)', async () => {
      const { zoneId, id } = await freshZone();
      const first = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expect(first.body).to.include({ bufferBeforeMinutes: 0, bufferAfterMinutes: 0 });
      await setPolicy(id, { bufferBeforeMinutes: 20 });
      const refused = await create(zoneId, '2027-01-05T10:10:00Z', '2027-01-05T11:00:00Z');
      expect(refused.status).to.equal(409);
      expect(refused.body.conflicts.map((c: { bookingId: string }) => c.bookingId)).to.deep.equal([first.body.id]);
      const accepted = await create(zoneId, '2027-01-05T10:20:00Z', '2027-01-05T11:00:00Z');
      expect(accepted.status).to.equal(201);
      expect(accepted.body).to.include({ bufferBeforeMinutes: 20 });
    });

    it('a reschedule into a buffer answers 409; new times take the buffers in force', async () => {
      const { zoneId, id } = await freshZone({ bufferBeforeMinutes: 15 });
      const first = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      const second = await create(zoneId, '2027-01-05T12:00:00Z', '2027-01-05T13:00:00Z');
      const into = await server.request('PATCH', `/booking/v1/bookings/${second.body.id}`, { token: alice, body: { startTime: '2027-01-05T10:10:00Z', endTime: '2027-01-05T11:00:00Z' } });
      expect(into.status).to.equal(409);
      expect(into.body.conflicts.map((c: { bookingId: string }) => c.bookingId)).to.deep.equal([first.body.id]);
      await setPolicy(id, { bufferBeforeMinutes: 0 });
      const moved = await server.request('PATCH', `/booking/v1/bookings/${second.body.id}`, { token: alice, body: { startTime: '2027-01-05T10:00:00Z', endTime: '2027-01-05T11:00:00Z' } });
      expect(moved.status).to.equal(200);
      expect(moved.body).to.include({ startTime: '2027-01-05T10:00:00Z', bufferBeforeMinutes: 0 });
      const history = await server.request('GET', `/booking/v1/bookings/${second.body.id}/history`, { token: alice });
      expect(history.body.events.at(-1).changes.bufferBeforeMinutes).to.deep.equal({ from: 15, to: 0 });
    });
  });

  describe('free slots', () => {
    it('lists a slot exactly when a booking of it would be accepted, buffers on both sides counted', async () => {
      const { zoneId, id } = await freshZone({ bufferAfterMinutes: 30 });
      await create(zoneId, '2027-01-05T10:00:00Z', '2027-01-05T11:00:00Z');
      await setPolicy(id, { bufferAfterMinutes: 0, bufferBeforeMinutes: 0 });
      const starts = async () => {
        const res = await server.request('GET', `/booking/v1/resources/${id}/available-slots?date=2027-01-05&slotMinutes=30`, { token: alice });
        expect(res.status).to.equal(200);
        return (res.body.slots as { startTime: string }[]).map((s) => s.startTime.slice(11, 16)).filter((t) => t >= '09:00' && t <= '12:00');
      };
      // The booking holds 10:00–11:30 (its own 30 minutes after).
      expect(await starts()).to.deep.equal(['09:00', '09:30', '11:30', '12:00']);
      await setPolicy(id, { bufferAfterMinutes: 20 });
      // A slot's own after-buffer now reaches the booking from 09:30 on.
      expect(await starts()).to.deep.equal(['09:00', '11:30', '12:00']);
      expect((await create(zoneId, '2027-01-05T09:30:00Z', '2027-01-05T10:00:00Z')).status).to.equal(409);
      expect((await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T09:30:00Z')).status).to.equal(201);
    });
  });

  describe('the exclusion constraint, second line of defence', () => {
    it('refuses a row whose occupied range overlaps another active one, though their own times only touch', async function () {
      // Only when the read models are written in the append's transaction (see bookings-concurrency).
      if (server.services.config.projections === 'async') this.skip();
      const { zoneId, id } = await freshZone({ bufferAfterMinutes: 10 });
      const first = await create(zoneId, '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z');
      expect(first.status).to.equal(201);
      const { db } = server.database;
      const row = await db.selectFrom('bookings').selectAll().where('id', '=', first.body.id).executeTakeFirstOrThrow();
      const neighbour = (n: number, start: string, end: string, before: number) => ({
        ...row,
        id: `0c0c0c0c-0000-4000-8000-00000000000${n}`,
        start_time: new Date(start),
        end_time: new Date(end),
        buffer_before_minutes: before,
        buffer_after_minutes: 0,
      });
      const error = await db
        .insertInto('bookings')
        .values(neighbour(1, '2027-01-06T10:00:00Z', '2027-01-06T11:00:00Z', 0))
        .execute()
        .then(() => null, (e: unknown) => e as { code?: string; constraint?: string });
      expect(error).to.include({ code: '23P01', constraint: 'bookings_no_overlap' });
      await db.insertInto('bookings').values(neighbour(2, '2027-01-06T10:10:00Z', '2027-01-06T11:00:00Z', 0)).execute();
      const byBefore = await db
        .insertInto('bookings')
        .values(neighbour(3, '2027-01-06T11:00:00Z', '2027-01-06T12:00:00Z', 5))
        .execute()
        .then(() => null, (e: unknown) => e as { code?: string; constraint?: string });
      expect(byBefore).to.include({ code: '23P01', constraint: 'bookings_no_overlap' });
      expect(await db.selectFrom('bookings').select('id').where('bookable_resource_id', '=', id).execute()).to.have.length(2);
    });
  });
});
