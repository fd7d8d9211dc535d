import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

const seriesBody = (zoneId: string, extra: Record<string, unknown> = {}) => ({
  ...bookingBody(zoneId, '2027-02-01T09:00:00Z', '2027-02-01T09:30:00Z'),
  recurrenceRule: 'FREQ=WEEKLY;COUNT=3',
  ...extra,
});

describe('an LV1 token books in the workspace it names', function () {
  this.timeout(60_000);
  let server: TestServer;
  let rootWithout: string;
  let rootOfAnother: string;
  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
    await registerZone(server, 'named-room');
    rootWithout = server.token({ level: 'LV1', sub: 'root', workspace: null });
    rootOfAnother = server.token({ level: 'LV1', sub: 'root-2', workspace: randomUUID() });
  });
  after(() => server.stop());

  it('books the named workspace\'s resource with an LV1 token without a workspace claim, and with one of another workspace', async () => {
    const first = await server.request('POST', '/booking/v1/bookings', {
      token: rootWithout,
      body: bookingBody('named-room', '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', { workspace: server.workspace }),
    });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body).to.include({ workspace: server.workspace, resourceId: 'named-room', bookerProfileId: 'root', status: 'confirmed' });

    const second = await server.request('POST', '/booking/v1/bookings', {
      token: rootOfAnother,
      body: bookingBody('named-room', '2027-01-05T10:00:00Z', '2027-01-05T11:00:00Z', { workspace: server.workspace.toUpperCase() }),
    });
    expect(second.status, JSON.stringify(second.body)).to.equal(201);
    expect(second.body).to.include({ workspace: server.workspace, bookerProfileId: 'root-2' });

    const listed = await server.request('GET', '/booking/v1/bookings?resourceId=named-room');
    expect(listed.body.data.map((b: { id: string }) => b.id)).to.have.members([first.body.id, second.body.id]);
    // The same resource, so the same conflict rules.
    const clash = await server.request('POST', '/booking/v1/bookings', {
      token: rootWithout,
      body: bookingBody('named-room', '2027-01-05T09:30:00Z', '2027-01-05T10:30:00Z', { workspace: server.workspace }),
    });
    expect(clash.status).to.equal(409);
  });

  it('answers 404 for a workspace without that registration, 400 when an LV1 token names none and carries none', async () => {
    const elsewhere = await server.request('POST', '/booking/v1/bookings', {
      token: rootWithout,
      body: bookingBody('named-room', '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z', { workspace: randomUUID() }),
    });
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).to.equal(404);

    const nowhere = await server.request('POST', '/booking/v1/bookings', { token: rootWithout, body: bookingBody('named-room', '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z') });
    expect(nowhere.status).to.equal(400);
    expect(nowhere.body.errors).to.deep.include({ path: '/body/workspace', message: 'workspace is required: the token carries none' });
  });

  it('refuses another workspace named by any other level with 400 naming workspace, storing nothing; its own is its own (CONTRACT §2)', async () => {
    for (const level of ['LV2', 'LV3', 'LV4'] as const) {
      const res = await server.request('POST', '/booking/v1/bookings', {
        token: server.token({ level, sub: `user-${level}` }),
        body: bookingBody('named-room', '2027-01-07T09:00:00Z', '2027-01-07T10:00:00Z', { workspace: randomUUID() }),
      });
      expect(res.status, `${level} ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.errors[0].path).to.equal('/body/workspace');
    }
    const day = await server.request('GET', '/booking/v1/bookings?from=2027-01-07T00:00:00Z&to=2027-01-08T00:00:00Z');
    expect(day.body.total).to.equal(0);
    const own = await server.request('POST', '/booking/v1/bookings', {
      token: server.token({ level: 'LV4', sub: 'user-own' }),
      body: bookingBody('named-room', '2027-01-07T09:00:00Z', '2027-01-07T10:00:00Z', { workspace: server.workspace.toUpperCase() }),
    });
    expect(own.status, JSON.stringify(own.body)).to.equal(201);
    expect(own.body.workspace).to.equal(server.workspace);
  });

  it('refuses a workspace that is not a uuid', async () => {
    const res = await server.request('POST', '/booking/v1/bookings', {
      token: rootWithout,
      body: bookingBody('named-room', '2027-01-08T09:00:00Z', '2027-01-08T10:00:00Z', { workspace: 'not-a-uuid' }),
    });
    expect(res.status).to.equal(400);
  });

  it('creates and previews a series in the named workspace; another level naming another workspace → 400', async () => {
    const preview = await server.request('POST', '/booking/v1/bookings/bulk?dryRun=true', { token: rootWithout, body: seriesBody('named-room', { workspace: server.workspace }) });
    expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
    expect(preview.body.occurrences).to.have.length(3);

    const created = await server.request('POST', '/booking/v1/bookings/bulk', { token: rootWithout, body: seriesBody('named-room', { workspace: server.workspace }) });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.parent).to.include({ workspace: server.workspace, bookerProfileId: 'root' });
    expect(created.body.occurrences.map((b: { workspace: string }) => b.workspace)).to.deep.equal([server.workspace, server.workspace, server.workspace]);

    const missing = await server.request('POST', '/booking/v1/bookings/bulk', { token: rootWithout, body: seriesBody('named-room', { workspace: randomUUID() }) });
    expect(missing.status).to.equal(404);

    const admin = server.token({ level: 'LV2', sub: 'admin' });
    for (const path of ['/booking/v1/bookings/bulk', '/booking/v1/bookings/bulk?dryRun=true']) {
      const refused = await server.request('POST', path, { token: admin, body: seriesBody('named-room', { startTime: '2027-03-01T09:00:00Z', endTime: '2027-03-01T09:30:00Z', workspace: randomUUID() }) });
      expect(refused.status, `${path} ${JSON.stringify(refused.body)}`).to.equal(400);
      expect(refused.body.errors[0].path).to.equal('/body/workspace');
    }
  });
});
