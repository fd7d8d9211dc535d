import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/**
 * Issue 6's "done when": with the embedded device records (no PLATFORM_DEVICE_SERVICE_URL) a user
 * creates a zone over HTTP, registers it as a bookable resource and books it.
 */
describe('from a new zone to a booking, with this service only', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
    const now = Temporal.Instant.from('2027-01-04T08:00:00Z');
    server.services.now = () => now;
  });
  after(() => server.stop());

  it('creates the zone, registers it and books it', async () => {
    const zone = await server.request('POST', '/device/v1/zones', { body: { id: 'board-room', name: 'Board room', workspace: server.workspace } });
    expect(zone.status).to.equal(201);

    const resource = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: 'board-room', capacity: 8 } });
    expect(resource.status, JSON.stringify(resource.body)).to.equal(201);
    expect(resource.body).to.include({ resourceType: 'zone', resourceId: 'board-room', resourceName: 'Board room', isActive: true });

    const user = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    const booking = await server.request('POST', '/booking/v1/bookings', {
      token: user,
      body: { resourceType: 'zone', resourceId: 'board-room', title: 'Weekly sync', startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z' },
    });
    expect(booking.status, JSON.stringify(booking.body)).to.equal(201);
    expect(booking.body).to.include({ resourceId: 'board-room', status: 'confirmed', bookerProfileId: 'alice' });
  });

  it('cannot register a zone that does not exist in the device records', async () => {
    const res = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: 'nowhere' } });
    expect(res.status).to.equal(422);
  });
});
