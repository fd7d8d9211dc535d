import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

// The service's clock stands at Monday 2027-01-04 08:00Z.
const monday = '2027-01-04T08:00:00Z';
const at = { startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z' };

describe('bundles over HTTP (contract §22)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: string;
  let alice: string;
  let bob: string;
  let counter = 0;
  const freshZone = async (policy: Record<string, unknown> = {}) => {
    counter += 1;
    const zoneId = `zone-u${counter}`;
    await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 365, ...policy } });
    return zoneId;
  };
  const item = (zoneId: string) => ({ resourceType: 'zone', resourceId: zoneId });
  const createBundle = (zoneIds: string[], extra: Record<string, unknown> = {}, token = alice) =>
    server.request('POST', '/booking/v1/bundles', { body: { title: 'Board', ...at, items: zoneIds.map(item), ...extra }, token });
  const eventCount = async () => Number((await server.database.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  /** Answers the response after checking that it stored nothing. */
  const storesNothing = async (request: () => Promise<{ status: number; body: Record<string, unknown> }>) => {
    const before = await eventCount();
    const res = await request();
    expect(await eventCount(), JSON.stringify(res.body)).to.equal(before);
    return res;
  };

  before(async () => {
    server = await startTestServer();
    admin = server.token({ level: 'LV2', sub: 'admin' });
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    bob = server.token({ level: 'LV4', sub: 'bob', email: 'bob@example.com' });
  });
  beforeEach(() => setClock(server, monday));
  after(() => server.stop());

  it('books every item in one step, in the items’ order, each booking carrying the bundle’s id; GET answers it', async () => {
    const zones = [await freshZone(), await freshZone(), await freshZone()];
    const res = await createBundle(zones);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.bookings.map((b: { resourceId: string }) => b.resourceId)).to.deep.equal(zones);
    for (const booking of res.body.bookings) expect(booking).to.include({ bundleId: res.body.id, status: 'confirmed', title: 'Board', bookerProfileId: 'alice', ...at });
    const got = await server.request('GET', `/booking/v1/bundles/${res.body.id}`, { token: alice });
    expect(got.status).to.equal(200);
    expect(got.body).to.deep.equal(res.body);
    expect((await server.request('GET', `/booking/v1/bundles/${res.body.id}`, { token: bob })).status).to.equal(404);
    const single = (await server.request('POST', '/booking/v1/bookings', { body: bookingBody(await freshZone(), at.startTime, at.endTime), token: alice })).body;
    expect(single.bundleId).to.equal(null);
  });

  it('books an item whose zone was removed and registered again on its new resource (a remembered registration read again)', async () => {
    const [removed, kept] = [await freshZone(), await freshZone()];
    expect((await createBundle([removed, kept])).status).to.equal(201);
    const [old] = await server.database.db.selectFrom('resources').select('id').where('resource_id', '=', removed).execute();
    expect((await server.request('DELETE', `/booking/v1/resources/${old!.id}`, { token: admin })).status).to.equal(204);
    const again = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: removed, bookingPolicy: { maxAdvanceDays: 365 } }, token: admin });
    expect(again.status).to.equal(201);
    const res = await createBundle([removed, kept], { startTime: '2027-01-05T11:00:00Z', endTime: '2027-01-05T12:00:00Z' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const schedule = await server.request('GET', `/booking/v1/resources/${again.body.id}/schedule?from=2027-01-05T00:00:00Z&to=2027-01-06T00:00:00Z`, { token: admin });
    expect(schedule.body.bookings.map((b: { id: string }) => b.id)).to.deep.equal([res.body.bookings[0].id]);
  });

  it('cancels one booking alone (the rest stays), refuses to move one alone (409 bundle_member), moves and cancels all', async () => {
    const zones = [await freshZone(), await freshZone()];
    const bundle = (await createBundle(zones)).body;
    const [first, second] = bundle.bookings;
    const moveAlone = await storesNothing(() => server.request('PATCH', `/booking/v1/bookings/${first.id}`, { body: { startTime: '2027-01-05T11:00:00Z', endTime: '2027-01-05T12:00:00Z' }, token: alice }));
    expect(moveAlone.status).to.equal(409);
    expect(moveAlone.body.reason).to.equal('bundle_member');

    const moved = await server.request('PATCH', `/booking/v1/bundles/${bundle.id}`, { body: { startTime: '2027-01-05T11:00:00Z', endTime: '2027-01-05T12:00:00Z', title: 'Moved' }, token: alice });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(moved.body.bookings.map((b: { startTime: string; title: string }) => [b.startTime, b.title])).to.deep.equal([
      ['2027-01-05T11:00:00Z', 'Moved'],
      ['2027-01-05T11:00:00Z', 'Moved'],
    ]);

    const cancelOne = await server.request('PATCH', `/booking/v1/bookings/${first.id}/cancel`, { token: alice });
    expect(cancelOne.status).to.equal(200);
    expect((await server.request('GET', `/booking/v1/bookings/${second.id}`, { token: alice })).body.status).to.equal('confirmed');

    const cancelled = await server.request('PATCH', `/booking/v1/bundles/${bundle.id}/cancel`, { body: { reason: 'Off' }, token: alice });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect(cancelled.body.bookings.map((b: { status: string }) => b.status)).to.deep.equal(['cancelled', 'cancelled']);
    expect(cancelled.body.bookings[1].reason).to.equal('Off');
    const again = await storesNothing(() => server.request('PATCH', `/booking/v1/bundles/${bundle.id}/cancel`, { token: alice }));
    expect(again.status).to.equal(409);
    expect((await server.request('PATCH', `/booking/v1/bundles/${bundle.id}/cancel`, { token: bob })).status).to.equal(404);
  });

  describe('bad input: a clear refusal, nothing stored', () => {
    it('400 for fewer than 2 or more than 20 items, or a resource twice', async () => {
      const zone = await freshZone();
      expect((await storesNothing(() => createBundle([zone]))).status).to.equal(400);
      expect((await storesNothing(() => createBundle(Array.from({ length: 21 }, (_, i) => `zone-x${i}`)))).status).to.equal(400);
      const other = await freshZone();
      const twice = await storesNothing(() => createBundle([zone, other, zone]));
      expect(twice.status).to.equal(400);
      expect((twice.body.errors as { path: string }[])[0]!.path).to.equal('/body/items/2');
      const badUnits = await storesNothing(() =>
        server.request('POST', '/booking/v1/bundles', { body: { title: 'Board', ...at, items: [{ ...item(zone), units: 0 }, item('zone-y')] }, token: alice }),
      );
      expect(badUnits.status).to.equal(400);
      const badTimes = await storesNothing(() => createBundle([zone, 'zone-unknown'], { endTime: at.startTime }));
      expect(badTimes.status).to.equal(400);
    });

    it('404 naming the first unknown item before any 422 or 409', async () => {
      const strict = await freshZone({ maxDurationMinutes: 30 });
      const res = await storesNothing(() => createBundle([strict, 'zone-nowhere', 'zone-nowhere-2']));
      expect(res.status).to.equal(404);
      expect(res.body.item).to.equal(1);
    });

    it('422 for the first item that violates a policy, with policy and item, before any 409', async () => {
      const taken = await freshZone();
      await server.request('POST', '/booking/v1/bookings', { body: bookingBody(taken, at.startTime, at.endTime), token: bob });
      const strict = await freshZone({ maxDurationMinutes: 30 });
      const [free, stricter] = [await freshZone(), await freshZone({ maxDurationMinutes: 15 })];
      const res = await storesNothing(() => createBundle([taken, free, strict, stricter]));
      expect(res.status).to.equal(422);
      expect(res.body).to.include({ policy: 'maxDurationMinutes', item: 2 });
    });

    it('422 quota when the items together pass a quota of the booker that each alone would not', async () => {
      const [a, b] = [await freshZone(), await freshZone()];
      const quota = await server.request('POST', '/booking/v1/quotas', { body: { limit: 1, unit: 'bookings', per: 'day' }, token: admin });
      expect(quota.status, JSON.stringify(quota.body)).to.equal(201);
      try {
        const res = await storesNothing(() => createBundle([a, b], { startTime: '2027-01-06T09:00:00Z', endTime: '2027-01-06T10:00:00Z' }));
        expect(res.status, JSON.stringify(res.body)).to.equal(422);
        expect(res.body).to.include({ policy: 'quota', item: 1 });
      } finally {
        await server.request('DELETE', `/booking/v1/quotas/${quota.body.id}`, { token: admin });
      }
    });

    it('409 with the conflicts of every item', async () => {
      const [a, b, c] = [await freshZone(), await freshZone(), await freshZone()];
      const inA = (await server.request('POST', '/booking/v1/bookings', { body: bookingBody(a, at.startTime, at.endTime), token: bob })).body;
      const inC = (await server.request('POST', '/booking/v1/bookings', { body: bookingBody(c, '2027-01-05T09:30:00Z', '2027-01-05T11:00:00Z'), token: bob })).body;
      const res = await storesNothing(() => createBundle([a, b, c]));
      expect(res.status).to.equal(409);
      expect((res.body.conflicts as { bookingId: string }[]).map((x) => x.bookingId)).to.deep.equal([inA.id, inC.id]);
    });

    it('a move of the bundle refused for one booking moves none', async () => {
      const [a, b] = [await freshZone(), await freshZone()];
      const bundle = (await createBundle([a, b])).body;
      await server.request('POST', '/booking/v1/bookings', { body: bookingBody(b, '2027-01-05T13:00:00Z', '2027-01-05T14:00:00Z'), token: bob });
      const res = await storesNothing(() => server.request('PATCH', `/booking/v1/bundles/${bundle.id}`, { body: { startTime: '2027-01-05T13:00:00Z', endTime: '2027-01-05T14:00:00Z' }, token: admin }));
      expect(res.status).to.equal(409);
      expect((await server.request('GET', `/booking/v1/bundles/${bundle.id}`, { token: alice })).body.bookings.map((x: { startTime: string }) => x.startTime)).to.deep.equal([at.startTime, at.startTime]);
    });
  });

  it('two bundles sharing a resource, racing: one stands whole, the other stores nothing', async () => {
    for (let round = 0; round < 5; round++) {
      const shared = await freshZone();
      const [mine, theirs] = [await freshZone(), await freshZone()];
      const before = await eventCount();
      const answers = await Promise.all([createBundle([mine, shared]), createBundle([shared, theirs], {}, bob)]);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses, JSON.stringify(answers.map((r) => r.body))).to.deep.equal([201, 409]);
      const bookings = await server.database.db.selectFrom('bookings').select(['bundle_id', 'resource_id']).where('resource_id', 'in', [shared, mine, theirs]).execute();
      const winner = answers.find((r) => r.status === 201)!.body;
      expect(bookings.map((b) => b.bundle_id)).to.deep.equal([winner.id, winner.id]);
      expect(await eventCount()).to.equal(before + 2);
    }
  });
});
