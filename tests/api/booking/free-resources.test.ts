import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody } from './booking-api.js';

const F = '/booking/v1/free-resources';
const window = 'from=2027-01-05T10:00:00Z&to=2027-01-05T11:00:00Z';

describe('GET /booking/v1/free-resources (contract §16)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let user: string;

  const zone = async (id: string, parentZoneId: string | null, registration: Record<string, unknown> | null) => {
    const created = await server.request('POST', '/device/v1/zones', { body: { id, name: `Room ${id}`, parentZoneId, workspace: server.workspace } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    if (!registration) return;
    const registered = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: id, ...registration } });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(201);
  };
  const search = (query: string, token = user) => server.request('GET', `${F}?${query}`, { token });
  const ids = (body: { resources: { resourceId: string }[] }) => body.resources.map((r) => r.resourceId);

  before(async () => {
    server = await startTestServer();
    const now = Temporal.Instant.from('2027-01-04T08:00:00Z');
    server.services.now = () => now;
    user = server.token({ level: 'LV4', sub: 'alice' });
    // floor-1 ⊃ { a (cap 8), b (cap 4), wing ⊃ { c (no capacity) } }; floor-2 ⊃ { d (cap 4, group g) }
    await zone('floor-1', null, null);
    await zone('floor-2', null, null);
    await zone('wing', 'floor-1', null);
    await zone('a', 'floor-1', { capacity: 8 });
    await zone('b', 'floor-1', { capacity: 4 });
    await zone('c', 'wing', {});
    await zone('d', 'floor-2', { capacity: 4, groupId: 'g' });
    await zone('closed', 'floor-2', { capacity: 2 });
    const closed = await server.request('GET', '/booking/v1/resources?limit=100');
    const closedId = closed.body.data.find((r: { resourceId: string }) => r.resourceId === 'closed').id as string;
    expect((await server.request('PATCH', `/booking/v1/resources/${closedId}`, { body: { isActive: false } })).status).to.equal(200);
    await zone('short', 'floor-2', { capacity: 3, bookingPolicy: { maxDurationMinutes: 30 } });
  });
  after(() => server.stop());

  it('lists the resources a create would accept, smallest capacity first, no capacity last, then name', async () => {
    const res = await search(window);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(ids(res.body)).to.deep.equal(['b', 'd', 'a', 'c']);
    expect(res.body).to.include({ from: '2027-01-05T10:00:00Z', to: '2027-01-05T11:00:00Z', timeZone: 'UTC', total: 4 });
    expect(res.body.resources[0]).to.include({ resourceType: 'zone', resourceName: 'Room b', capacity: 4 });
  });

  it('filters by capacity, type, group and the zone tree', async () => {
    expect(ids((await search(`${window}&minCapacity=5`)).body)).to.deep.equal(['a']);
    expect(ids((await search(`${window}&resourceType=device`)).body)).to.deep.equal([]);
    expect(ids((await search(`${window}&groupId=g`)).body)).to.deep.equal(['d']);
    expect(ids((await search(`${window}&zoneId=floor-1`)).body)).to.deep.equal(['b', 'a', 'c']);
    expect(ids((await search(`${window}&zoneId=wing`)).body)).to.deep.equal(['c']);
    expect(ids((await search(`${window}&zoneId=c`)).body)).to.deep.equal(['c']);
  });

  it('follows a zone moved under another parent at once', async () => {
    const moved = await server.request('PATCH', '/device/v1/zones/wing', { body: { parentZoneId: 'floor-2' } });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    try {
      expect(ids((await search(`${window}&zoneId=floor-1`)).body)).to.deep.equal(['b', 'a']);
      expect(ids((await search(`${window}&zoneId=floor-2`)).body)).to.deep.equal(['d', 'c']);
    } finally {
      await server.request('PATCH', '/device/v1/zones/wing', { body: { parentZoneId: 'floor-1' } });
    }
  });

  it('leaves out a booked resource, pages by limit and counts every free one in total', async () => {
    const booked = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('b', '2027-01-05T10:30:00Z', '2027-01-05T11:30:00Z') });
    expect(booked.status).to.equal(201);
    const res = await search(`${window}&limit=2`);
    expect(ids(res.body)).to.deep.equal(['d', 'a']);
    expect(res.body.total).to.equal(3);
    expect(res.body.suggestions).to.equal(undefined);
    const create = await server.request('POST', '/booking/v1/bookings', { token: user, body: bookingBody('b', '2027-01-05T10:00:00Z', '2027-01-05T11:00:00Z') });
    expect(create.status).to.equal(409);
  });

  it('suggests the nearest windows of the same length when fewer than limit are free, in tz', async () => {
    const res = await search(`from=2027-01-05T11:00:00%2B01:00&to=2027-01-05T12:00:00%2B01:00&tz=Europe/Berlin&zoneId=floor-1&limit=5`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ from: '2027-01-05T11:00:00+01:00', timeZone: 'Europe/Berlin', total: 2 });
    // b is booked 10:30–11:30Z: an hour is free on it until 10:30Z and from 11:30Z (12:30 in Berlin),
    // so the five nearest starts are all earlier ones: 30, 45, 60, 75 and 90 minutes before.
    expect(res.body.suggestions.map((s: { resource: { resourceId: string }; startTime: string }) => [s.resource.resourceId, s.startTime])).to.deep.equal([
      ['b', '2027-01-05T10:30:00+01:00'],
      ['b', '2027-01-05T10:15:00+01:00'],
      ['b', '2027-01-05T10:00:00+01:00'],
      ['b', '2027-01-05T09:45:00+01:00'],
      ['b', '2027-01-05T09:30:00+01:00'],
    ]);
    expect(res.body.suggestions[0].endTime).to.equal('2027-01-05T11:30:00+01:00');
  });

  it('applies the policies for this caller: duration, operating hours, inactive', async () => {
    const halfHour = await search('from=2027-01-05T10:00:00Z&to=2027-01-05T10:30:00Z&zoneId=floor-2');
    expect(ids(halfHour.body)).to.deep.equal(['short', 'd']);
    expect(ids((await search(`${window}&zoneId=floor-2`)).body)).to.deep.equal(['d']);
  });

  it('lists for a guest (LV5) what a create would accept but for the caller checks', async () => {
    const res = await search(window, server.token({ level: 'LV5', sub: 'guest' }));
    expect(res.status).to.equal(200);
    expect(res.body.total).to.equal(3);
  });

  it('finds the resources free for a whole series, and with includePartial those free for some occurrences', async () => {
    // A booking on d in the third week takes one occurrence of a weekly series.
    const taken = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('d', '2027-01-19T10:00:00Z', '2027-01-19T11:00:00Z') });
    expect(taken.status).to.equal(201);
    const series = `${window}&recurrenceRule=FREQ%3DWEEKLY%3BCOUNT%3D4&timeZone=UTC&zoneId=floor-2`;
    const whole = await search(series);
    expect(whole.status, JSON.stringify(whole.body)).to.equal(200);
    expect(ids(whole.body)).to.deep.equal([]);
    expect(whole.body).to.not.have.property('suggestions');
    const partial = await search(`${series}&includePartial=true`);
    expect(ids(partial.body)).to.deep.equal(['d']);
    expect(partial.body.total).to.equal(0);
    expect(partial.body.resources[0].unavailableOccurrences).to.deep.equal([{ startTime: '2027-01-19T10:00:00Z', endTime: '2027-01-19T11:00:00Z', reason: 'conflict' }]);
    const bulk = await server.request('POST', '/booking/v1/bookings/bulk?dryRun=false', {
      token: user,
      body: { ...bookingBody('d', '2027-01-05T10:00:00Z', '2027-01-05T11:00:00Z'), recurrenceRule: 'FREQ=WEEKLY;COUNT=4', timeZone: 'UTC' },
    });
    expect(bulk.status).to.equal(409);
  });

  it('counts a series\' occurrences towards maxBookingsPerUser after the caller\'s own bookings, as the dry run and the bulk create do (contract §6)', async () => {
    await zone('floor-3', null, null);
    await zone('limited', 'floor-3', { capacity: 5, bookingPolicy: { maxBookingsPerUser: 3 } });
    const held = await server.request('POST', '/booking/v1/bookings', { token: user, body: bookingBody('limited', '2027-01-06T10:00:00Z', '2027-01-06T11:00:00Z') });
    expect(held.status, JSON.stringify(held.body)).to.equal(201);
    const body = { ...bookingBody('limited', '2027-01-05T10:00:00Z', '2027-01-05T11:00:00Z'), recurrenceRule: 'FREQ=WEEKLY;COUNT=4', timeZone: 'UTC' };
    const dryRun = await server.request('POST', '/booking/v1/bookings/bulk?dryRun=true', { token: user, body });
    expect(dryRun.status, JSON.stringify(dryRun.body)).to.equal(200);
    // One held: the first two occurrences make three, the third and fourth would pass the limit.
    const refused = dryRun.body.occurrences.filter((o: { violations: string[] }) => o.violations.length > 0);
    expect(refused.map((o: { startTime: string; violations: string[] }) => [o.startTime, o.violations])).to.deep.equal([
      ['2027-01-19T10:00:00Z', ['maxBookingsPerUser']],
      ['2027-01-26T10:00:00Z', ['maxBookingsPerUser']],
    ]);
    const partial = await search(`${window}&recurrenceRule=FREQ%3DWEEKLY%3BCOUNT%3D4&timeZone=UTC&zoneId=floor-3&includePartial=true`);
    expect(partial.status, JSON.stringify(partial.body)).to.equal(200);
    expect(ids(partial.body)).to.deep.equal(['limited']);
    expect(partial.body.total).to.equal(0);
    expect(partial.body.resources[0].unavailableOccurrences).to.deep.equal([
      { startTime: '2027-01-19T10:00:00Z', endTime: '2027-01-19T11:00:00Z', reason: 'maxBookingsPerUser' },
      { startTime: '2027-01-26T10:00:00Z', endTime: '2027-01-26T11:00:00Z', reason: 'maxBookingsPerUser' },
    ]);
    const bulk = await server.request('POST', '/booking/v1/bookings/bulk', { token: user, body });
    expect(bulk.status, JSON.stringify(bulk.body)).to.equal(422);
    expect(bulk.body.policy ?? bulk.body.details?.policy).to.equal('maxBookingsPerUser');
  });

  describe('refuses a bad query with a 400 naming the parameter', () => {
    const cases: [string, string][] = [
      ['to before from', 'from=2027-01-05T11:00:00Z&to=2027-01-05T10:00:00Z'],
      ['more than 7 days', 'from=2027-01-05T10:00:00Z&to=2027-01-12T10:00:01Z'],
      ['no offset', 'from=2027-01-05T10:00:00&to=2027-01-05T11:00:00Z'],
      ['an unknown tz', `${window}&tz=Mars/Olympus`],
      ['limit over 100', `${window}&limit=101`],
      ['limit 0', `${window}&limit=0`],
      ['a bad rule', `${window}&recurrenceRule=FREQ%3DSOMETIMES`],
      ['a rule finer than daily', `${window}&recurrenceRule=FREQ%3DHOURLY`],
      ['over 500 occurrences', `${window}&recurrenceRule=FREQ%3DDAILY%3BCOUNT%3D501`],
      ['an unknown series zone', `${window}&recurrenceRule=FREQ%3DDAILY%3BCOUNT%3D2&timeZone=Nowhere/Else`],
      ['another workspace', `${window}&workspace=00000000-0000-4000-8000-000000000000`],
      ['a negative capacity', `${window}&minCapacity=-1`],
    ];
    for (const [name, query] of cases) {
      it(name, async () => {
        const res = await search(query);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.statusCode).to.equal(400);
      });
    }

    it('LV1 without a workspace; with one it searches there', async () => {
      const admin = server.token({ level: 'LV1', workspace: null, sub: 'root' });
      expect((await search(window, admin)).status).to.equal(400);
      const res = await search(`${window}&workspace=${server.workspace}`, admin);
      expect(res.status).to.equal(200);
      expect(res.body.total).to.be.greaterThan(0);
    });

    it('asks for a token', async () => {
      expect((await server.request('GET', `${F}?${window}`, { token: null })).status).to.equal(401);
    });
  });
});
