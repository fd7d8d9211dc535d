import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { seedZone } from '../../support/device-records.js';

describe('bookable resources over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await seedZone(server.database.db, server.workspace, 'zone-42', 'Board room');
  });
  after(() => server.stop());

  it('registers a zone with the policy defaults and its name from the device records', async () => {
    const res = await server.request('POST', '/booking/v1/resources', {
      body: { resourceType: 'zone', resourceId: 'zone-42', capacity: 8, bookingPolicy: { maxDurationMinutes: 240 } },
    });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ resourceType: 'zone', resourceId: 'zone-42', resourceName: 'Board room', workspace: server.workspace, isActive: true, capacity: 8 });
    expect(res.body.bookingPolicy).to.deep.equal({
      maxDurationMinutes: 240,
      maxAdvanceDays: 180,
      minNoticeMinutes: 0,
      allowRecurring: true,
      autoConfirm: true,
      maxBookingsPerUser: null,
      cancellationPolicy: { minNoticeMinutes: 0 },
      gracePeriodMinutes: 15,
    });
    const read = await server.request('GET', `/booking/v1/resources/${res.body.id}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.equal(res.body);
  });
});
