import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

// The service's clock stands at Monday 2027-01-04 08:00Z.
const monday = '2027-01-04T08:00:00Z';

describe('booking on behalf over HTTP (contract §17)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let assistant: string;
  let alice: string;
  let ceo: string;
  let counter = 0;
  const freshZone = async (bookingPolicy: Record<string, unknown> = {}) => {
    counter += 1;
    const zoneId = `behalf-zone-${counter}`;
    return { zoneId, id: await registerZone(server, zoneId, { bookingPolicy }) };
  };
  const create = (token: string, zoneId: string, start: string, end: string, extra: Record<string, unknown> = {}) =>
    server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, start, end, extra), token });

  before(async () => {
    server = await startTestServer();
    // LV3 with no group: booking on behalf is no resource management, so its groups do not matter.
    assistant = server.token({ level: 'LV3', sub: 'assistant', email: 'assistant@example.com', workspace: server.workspace });
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    ceo = server.token({ level: 'LV4', sub: 'ceo', email: 'ceo@example.com' });
  });
  beforeEach(() => setClock(server, monday));
  after(() => server.stop());

  it('an LV3 books for the named user: the booking is theirs, createdBy is the actor, in the answer and in GET', async () => {
    const { zoneId } = await freshZone();
    const res = await create(assistant, zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { bookerProfileId: 'ceo', bookerEmail: 'ceo@example.com' });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ bookerProfileId: 'ceo', bookerEmail: 'ceo@example.com', createdBy: 'assistant' });
    // The booked user sees it as their own.
    const read = await server.request('GET', `/booking/v1/bookings/${res.body.id}`, { token: ceo });
    expect(read.status).to.equal(200);
    expect(read.body).to.include({ bookerProfileId: 'ceo', createdBy: 'assistant' });
    const history = await server.request('GET', `/booking/v1/bookings/${res.body.id}/history`, { token: ceo });
    expect(history.body.events[0]).to.deep.include({ by: 'assistant' });
    expect(history.body.events[0].changes.createdBy).to.deep.equal({ from: null, to: 'assistant' });
  });

  it('maxBookingsPerUser counts for the booked user, not the actor', async () => {
    const { zoneId } = await freshZone({ maxBookingsPerUser: 1 });
    expect((await create(ceo, zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z')).status).to.equal(201);
    const refused = await create(assistant, zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z', { bookerProfileId: 'ceo' });
    expect(refused.status).to.equal(422);
    expect(refused.body).to.include({ policy: 'maxBookingsPerUser' });
    expect((await create(assistant, zoneId, '2027-01-05T11:00:00Z', '2027-01-05T12:00:00Z')).status).to.equal(201);
  });

  it('an LV4 naming another user answers 403 and stores nothing; naming itself is a booking for itself', async () => {
    const { zoneId, id } = await freshZone();
    const refused = await create(alice, zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { bookerProfileId: 'ceo' });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.include({ statusCode: 403 });
    expect(await server.database.db.selectFrom('bookings').select('id').where('bookable_resource_id', '=', id).execute()).to.have.length(0);
    const own = await create(alice, zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { bookerProfileId: 'alice' });
    expect(own.status).to.equal(201);
    expect(own.body).to.include({ bookerProfileId: 'alice', bookerEmail: 'alice@example.com', createdBy: 'alice' });
  });

  it('a series on behalf: parent and occurrences are the named user’s, each created by the actor; LV4 naming another → 403', async () => {
    const { zoneId } = await freshZone();
    const body = {
      resourceType: 'zone',
      resourceId: zoneId,
      title: 'Board',
      startTime: '2027-01-11T09:00:00Z',
      endTime: '2027-01-11T10:00:00Z',
      recurrenceRule: 'FREQ=WEEKLY;COUNT=2',
      bookerProfileId: 'ceo',
    };
    const res = await server.request('POST', '/booking/v1/bookings/bulk', { body, token: assistant });
    expect(res.status).to.equal(201);
    for (const booking of [res.body.parent, ...res.body.occurrences]) expect(booking).to.include({ bookerProfileId: 'ceo', bookerEmail: null, createdBy: 'assistant' });
    expect((await server.request('POST', '/booking/v1/bookings/bulk', { body: { ...body, startTime: '2027-01-12T09:00:00Z', endTime: '2027-01-12T10:00:00Z' }, token: alice })).status).to.equal(403);
  });

  it('a body naming bookerProfileId of the wrong shape is a 400', async () => {
    const { zoneId } = await freshZone();
    const res = await create(assistant, zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { bookerProfileId: '' });
    expect(res.status).to.equal(400);
  });
});
