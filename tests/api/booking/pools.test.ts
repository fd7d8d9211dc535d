import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

// The service's clock stands at Monday 2027-01-04 08:00Z.
const monday = '2027-01-04T08:00:00Z';

describe('pools over HTTP (contract §21)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let alice: string;
  let bob: string;
  let counter = 0;
  const freshPool = async (units: number, bookingPolicy: Record<string, unknown> = {}) => {
    counter += 1;
    const zoneId = `pool-zone-${counter}`;
    return { zoneId, id: await registerZone(server, zoneId, { units, bookingPolicy: { maxAdvanceDays: 365, ...bookingPolicy } }) };
  };
  const create = (zoneId: string, start: string, end: string, extra: Record<string, unknown> = {}, token = alice) =>
    server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, start, end, extra), token });

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    bob = server.token({ level: 'LV4', sub: 'bob', email: 'bob@example.com' });
  });
  beforeEach(() => setClock(server, monday));
  after(() => server.stop());

  describe('units on resources', () => {
    it('registers a pool with its units, a room with one, and PATCH changes them; the record and history carry them', async () => {
      const { id } = await freshPool(40);
      expect((await server.request('GET', `/booking/v1/resources/${id}`)).body).to.include({ units: 40 });
      counter += 1;
      const room = await registerZone(server, `pool-room-${counter}`);
      expect((await server.request('GET', `/booking/v1/resources/${room}`)).body).to.include({ units: 1 });
      const patched = await server.request('PATCH', `/booking/v1/resources/${id}`, { body: { units: 120 } });
      expect(patched.status).to.equal(200);
      expect(patched.body).to.include({ units: 120 });
      const history = await server.request('GET', `/booking/v1/resources/${id}/history`);
      expect(history.body.events.find((e: { type: string }) => e.type === 'ResourceUpdated').data.changes).to.deep.include({ units: 120 });
    });

    for (const value of [0, -1, 2.5, 10_001, '3']) {
      it(`refuses units = ${JSON.stringify(value)} with a 400 naming units: registration, PATCH, booking, reschedule, slots`, async () => {
        counter += 1;
        const registered = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: `bad-units-${counter}`, units: value } });
        expect(registered.status).to.equal(400);
        expect(JSON.stringify(registered.body)).to.include('units');
        const { zoneId, id } = await freshPool(5);
        const patched = await server.request('PATCH', `/booking/v1/resources/${id}`, { body: { units: value } });
        expect(patched.status).to.equal(400);
        expect(JSON.stringify(patched.body)).to.include('units');
        const booked = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { units: value });
        expect(booked.status).to.equal(400);
        expect(JSON.stringify(booked.body)).to.include('units');
        const ok = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
        const moved = await server.request('PATCH', `/booking/v1/bookings/${ok.body.id}`, { body: { units: value }, token: alice });
        expect(moved.status).to.equal(400);
        // A query's values are text: "3" there is the number 3.
        if (typeof value === 'number') {
          const slots = await server.request('GET', `/booking/v1/resources/${id}/available-slots?date=2027-01-05&units=${value}`, { token: alice });
          expect(slots.status, JSON.stringify(slots.body)).to.equal(400);
          expect(JSON.stringify(slots.body)).to.include('units');
        }
        expect((await server.request('GET', `/booking/v1/resources/${id}`)).body).to.include({ units: 5 });
      });
    }
  });

  describe('the counting rule', () => {
    it('accepts while the units fit at every instant, then answers 409 with every booking in the way and the fewest free units', async () => {
      const { zoneId } = await freshPool(3);
      const two = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T11:00:00Z', { units: 2 });
      expect(two.status).to.equal(201);
      expect(two.body).to.include({ units: 2 });
      const one = await create(zoneId, '2027-01-05T10:00:00Z', '2027-01-05T12:00:00Z', {}, bob);
      expect(one.status).to.equal(201);
      expect(one.body).to.include({ units: 1 });
      // 09:00–10:00 has one unit free, 10:00–11:00 none.
      expect((await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z')).status).to.equal(201);
      const refused = await create(zoneId, '2027-01-05T10:30:00Z', '2027-01-05T13:00:00Z');
      expect(refused.status).to.equal(409);
      expect(refused.body.availableUnits).to.equal(0);
      expect(refused.body.conflicts.map((c: { bookingId: string }) => c.bookingId).sort()).to.deep.equal([two.body.id, one.body.id].sort());
      const tooMany = await create(zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z', { units: 3 });
      expect(tooMany.status).to.equal(409);
      expect(tooMany.body.availableUnits).to.equal(2);
      expect((await create(zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z', { units: 2 })).status).to.equal(201);
    });

    it('refuses more units than the resource has with 422 policy units, and a room stays a room', async () => {
      const { zoneId } = await freshPool(4);
      const refused = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { units: 5 });
      expect(refused.status).to.equal(422);
      expect(refused.body).to.include({ policy: 'units' });
      counter += 1;
      const roomId = `pool-room-${counter}`;
      await registerZone(server, roomId, { bookingPolicy: { maxAdvanceDays: 365 } });
      const first = await create(roomId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z');
      expect(first.body).to.include({ units: 1 });
      const second = await create(roomId, '2027-01-05T09:30:00Z', '2027-01-05T10:30:00Z', {}, bob);
      expect(second.status).to.equal(409);
      expect(second.body).to.deep.include({ availableUnits: 0, conflicts: [{ bookingId: first.body.id, startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z' }] });
    });

    it('counts buffers: a booking occupies its units over its occupied range', async () => {
      const { zoneId } = await freshPool(2, { bufferAfterMinutes: 30 });
      expect((await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { units: 2 })).status).to.equal(201);
      expect((await create(zoneId, '2027-01-05T10:15:00Z', '2027-01-05T11:00:00Z')).status).to.equal(409);
      expect((await create(zoneId, '2027-01-05T10:30:00Z', '2027-01-05T11:00:00Z')).status).to.equal(201);
    });

    it('reschedules with units: more units are decided as new times are, the booking itself left out', async () => {
      const { zoneId } = await freshPool(3);
      const mine = await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { units: 2 });
      await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', {}, bob);
      const more = await server.request('PATCH', `/booking/v1/bookings/${mine.body.id}`, { body: { units: 3 }, token: alice });
      expect(more.status).to.equal(409);
      // The booking itself is left out: bob's one unit leaves two of three free.
      expect(more.body.availableUnits).to.equal(2);
      const fewer = await server.request('PATCH', `/booking/v1/bookings/${mine.body.id}`, { body: { units: 1 }, token: alice });
      expect(fewer.status).to.equal(200);
      expect(fewer.body).to.include({ units: 1 });
      expect((await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z')).status).to.equal(201);
      const history = await server.request('GET', `/booking/v1/bookings/${mine.body.id}/history`, { token: alice });
      expect(JSON.stringify(history.body)).to.include('"units":1');
    });

    it('lowering units below the use leaves the bookings standing; later creates are judged against the new value', async () => {
      const { zoneId, id } = await freshPool(4);
      for (const token of [alice, bob, alice, bob]) expect((await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', {}, token)).status).to.equal(201);
      const lowered = await server.request('PATCH', `/booking/v1/resources/${id}`, { body: { units: 2 } });
      expect(lowered.status).to.equal(200);
      const schedule = await server.request('GET', `/booking/v1/resources/${id}/schedule?from=2027-01-05T00:00:00Z&to=2027-01-06T00:00:00Z`, { token: alice });
      expect(schedule.body.bookings.filter((b: { status: string }) => b.status === 'confirmed')).to.have.length(4);
      expect((await create(zoneId, '2027-01-05T09:30:00Z', '2027-01-05T10:30:00Z')).status).to.equal(409);
      expect((await create(zoneId, '2027-01-05T10:00:00Z', '2027-01-05T11:00:00Z', { units: 2 })).status).to.equal(201);
    });
  });

  describe('reads', () => {
    it('lists a slot exactly when its units fit, each with its fewest free units; more units than the resource → 422', async () => {
      const { zoneId, id } = await freshPool(3);
      await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { units: 2 });
      await create(zoneId, '2027-01-05T09:30:00Z', '2027-01-05T10:30:00Z', {}, bob);
      const slots = (units: number) => server.request('GET', `/booking/v1/resources/${id}/available-slots?date=2027-01-05&slotMinutes=30&units=${units}`, { token: alice });
      const one = await slots(1);
      expect(one.status).to.equal(200);
      expect(one.body.units).to.equal(1);
      const at = (body: any, start: string) => body.slots.find((s: { startTime: string }) => s.startTime === start);
      expect(at(one.body, '2027-01-05T09:00:00Z')).to.deep.equal({ startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T09:30:00Z', availableUnits: 1 });
      expect(at(one.body, '2027-01-05T09:30:00Z')).to.equal(undefined);
      expect(at(one.body, '2027-01-05T10:00:00Z')).to.include({ availableUnits: 2 });
      expect(at(one.body, '2027-01-05T10:30:00Z')).to.include({ availableUnits: 3 });
      const two = await slots(2);
      expect(at(two.body, '2027-01-05T09:00:00Z')).to.equal(undefined);
      expect(at(two.body, '2027-01-05T10:00:00Z')).to.include({ availableUnits: 2 });
      const four = await slots(4);
      expect(four.status).to.equal(422);
      expect(four.body).to.include({ policy: 'units' });
    });

    it('adds usage to a pool’s schedule: the maximal runs of constant use, in tz, buffers included', async () => {
      const { zoneId, id } = await freshPool(5, { bufferAfterMinutes: 15 });
      await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { units: 2 });
      await create(zoneId, '2027-01-05T09:30:00Z', '2027-01-05T10:00:00Z', {}, bob);
      const cancelled = await create(zoneId, '2027-01-05T12:00:00Z', '2027-01-05T13:00:00Z');
      expect((await server.request('PATCH', `/booking/v1/bookings/${cancelled.body.id}/cancel`, { body: {}, token: alice })).status).to.equal(200);
      const schedule = await server.request('GET', `/booking/v1/resources/${id}/schedule?from=2027-01-05T00:00:00Z&to=2027-01-06T00:00:00Z&tz=Europe/Berlin`, { token: alice });
      expect(schedule.status).to.equal(200);
      expect(schedule.body.usage).to.deep.equal([
        { startTime: '2027-01-05T10:00:00+01:00', endTime: '2027-01-05T10:30:00+01:00', usedUnits: 2 },
        { startTime: '2027-01-05T10:30:00+01:00', endTime: '2027-01-05T11:15:00+01:00', usedUnits: 3 },
      ]);
      expect(schedule.body.bookings.every((b: { units: number }) => b.units >= 1)).to.equal(true);
      counter += 1;
      const room = await registerZone(server, `pool-room-${counter}`);
      const roomSchedule = await server.request('GET', `/booking/v1/resources/${room}/schedule?from=2027-01-05T00:00:00Z&to=2027-01-06T00:00:00Z`, { token: alice });
      expect(roomSchedule.body).to.not.have.property('usage');
    });

    it('the free search takes units: lists a pool while they fit, with its fewest free units', async () => {
      const { zoneId, id } = await freshPool(3);
      await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { units: 2 });
      const search = (units: number) =>
        server.request('GET', `/booking/v1/free-resources?from=2027-01-05T09:00:00Z&to=2027-01-05T10:00:00Z&units=${units}&limit=100`, { token: alice });
      const one = await search(1);
      expect(one.status).to.equal(200);
      expect(one.body.resources.find((r: { id: string }) => r.id === id)).to.include({ availableUnits: 1 });
      const two = await search(2);
      expect(two.body.resources.find((r: { id: string }) => r.id === id)).to.equal(undefined);
      expect((await server.request('GET', '/booking/v1/free-resources?from=2027-01-05T09:00:00Z&to=2027-01-05T10:00:00Z&units=0', { token: alice })).status).to.equal(400);
    });

    it('a series takes units for every occurrence; its dry run tells each occurrence’s free units', async () => {
      const { zoneId } = await freshPool(2, { allowRecurring: true });
      const busy = await create(zoneId, '2027-01-12T09:00:00Z', '2027-01-12T10:00:00Z', {}, bob);
      const body = { resourceType: 'zone', resourceId: zoneId, title: 'Weekly', startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z', recurrenceRule: 'FREQ=WEEKLY;COUNT=3', units: 2 };
      const preview = await server.request('POST', '/booking/v1/bookings/bulk?dryRun=true', { body, token: alice });
      expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
      expect(preview.body.occurrences.map((o: { availableUnits: number; conflicts: unknown[] }) => [o.availableUnits, o.conflicts.length])).to.deep.equal([
        [2, 0],
        [1, 1],
        [2, 0],
      ]);
      const refused = await server.request('POST', '/booking/v1/bookings/bulk', { body, token: alice });
      expect(refused.status).to.equal(409);
      expect(refused.body.conflicts.map((c: { bookingId: string }) => c.bookingId)).to.deep.equal([busy.body.id]);
      const fits = await server.request('POST', '/booking/v1/bookings/bulk', { body: { ...body, units: 1 }, token: alice });
      expect(fits.status, JSON.stringify(fits.body)).to.equal(201);
    });
  });

  it('counts a pool’s utilization in unit-minutes: booked and open minutes both times units', async () => {
    const { zoneId, id } = await freshPool(4);
    await create(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { units: 2 });
    await create(zoneId, '2027-01-05T09:30:00Z', '2027-01-05T10:00:00Z', {}, bob);
    const admin = server.token({ level: 'LV2', sub: 'pool-admin' });
    const res = await server.request('GET', `/booking/v1/analytics/utilization?from=2027-01-05T00:00:00Z&to=2027-01-06T00:00:00Z&resourceId=${id}`, { token: admin });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.rows[0]).to.include({ resourceId: id, openMinutes: 4 * 1440, bookedMinutes: 150, bookings: 2 });
    expect(res.body.rows[0].utilization).to.be.closeTo(150 / (4 * 1440), 1e-12);
  });

  describe('under concurrency', () => {
    it('60 simultaneous one-unit creates of one hour on a pool of 5: exactly 5 × 201, 55 × 409', async () => {
      const { zoneId, id } = await freshPool(5);
      const tokens = Array.from({ length: 60 }, (_, i) => server.token({ level: 'LV4', sub: `rush-${i}` }));
      const answers = await Promise.all(tokens.map((token) => create(zoneId, '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z', {}, token)));
      expect(answers.filter((a) => a.status === 201)).to.have.length(5);
      expect(answers.filter((a) => a.status === 409)).to.have.length(55);
      const rows = await server.database.db.selectFrom('bookings').select('units').where('bookable_resource_id', '=', id).where('status', 'in', ['pending', 'confirmed']).execute();
      expect(rows.reduce((sum, r) => sum + r.units, 0)).to.equal(5);
    });

    it('the append’s count refuses units over the pool that skipped the decision (a writer outside the stream)', async function () {
      // Only where the read models are written in the append's transaction (see the exclusion constraint's test).
      if (server.services.config.projections === 'async') this.skip();
      const { zoneId, id } = await freshPool(2);
      expect((await create(zoneId, '2027-02-01T09:00:00Z', '2027-02-01T10:00:00Z', { units: 2 })).status).to.equal(201);
      const stored = await server.database.db.selectFrom('events').select('data').where('stream_id', '=', `resource-${id}`).where('event_type', '=', 'BookingCreated').executeTakeFirstOrThrow();
      const booking = { ...(stored.data as any).booking, id: '0b0b0b0b-0000-4000-8000-0000000000a1', units: 1, startTime: '2027-02-01T09:30:00Z', endTime: '2027-02-01T10:30:00Z' };
      const sneaky = server.services.eventStore.appendToStream('elsewhere-pool', [{ type: 'BookingCreated', data: { booking, by: 'test', at: booking.createdAt } }], 'any');
      const error = await sneaky.then(
        () => null,
        (e: unknown) => e as { code?: string; constraint?: string },
      );
      expect(error).to.include({ code: '23514', constraint: 'bookings_within_pool_units' });
      const fits = { ...booking, id: '0b0b0b0b-0000-4000-8000-0000000000a2', startTime: '2027-02-01T10:00:00Z', endTime: '2027-02-01T11:00:00Z' };
      await server.services.eventStore.appendToStream('elsewhere-pool', [{ type: 'BookingCreated', data: { booking: fits, by: 'test', at: fits.createdAt } }], 'any');
    });

    it('the append’s count adds their buffers to the bookings it reads: a writer outside the stream meeting them only there is refused', async function () {
      if (server.services.config.projections === 'async') this.skip();
      const { zoneId, id } = await freshPool(2, { bufferBeforeMinutes: 15, bufferAfterMinutes: 15 });
      expect((await create(zoneId, '2027-02-02T09:00:00Z', '2027-02-02T10:00:00Z', { units: 2 })).status).to.equal(201);
      const stored = await server.database.db.selectFrom('events').select('data').where('stream_id', '=', `resource-${id}`).where('event_type', '=', 'BookingCreated').executeTakeFirstOrThrow();
      // No buffer before its own start: it meets the held booking (occupied until 10:15) only in that booking's buffer after.
      const within = (n: string, startTime: string) => ({ ...(stored.data as any).booking, id: `0b0b0b0b-0000-4000-8000-0000000000${n}`, units: 1, bufferBeforeMinutes: 0, startTime, endTime: '2027-02-02T11:00:00Z' });
      const append = (booking: Record<string, unknown>) =>
        server.services.eventStore.appendToStream('elsewhere-pool-buffers', [{ type: 'BookingCreated', data: { booking, by: 'test', at: booking.createdAt } }], 'any');
      const error = await append(within('b1', '2027-02-02T10:05:00Z')).then(
        () => null,
        (e: unknown) => e as { code?: string; constraint?: string },
      );
      expect(error).to.include({ code: '23514', constraint: 'bookings_within_pool_units' });
      await append(within('b2', '2027-02-02T10:15:00Z'));
    });
  });
});
