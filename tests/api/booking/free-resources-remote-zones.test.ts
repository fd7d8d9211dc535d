import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { createRemoteDeviceDirectory } from '../../../src/infra/device-service/remote-device-directory.js';
import { reconcileResources } from '../../../src/workers/device/reconcile-resources.js';
import { startFakeDeviceService, type FakeDeviceService } from '../../support/fake-device-service.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const window = 'from=2027-01-05T10:00:00Z&to=2027-01-05T11:00:00Z';

describe('the free search filters by the zone tree of a remote device service', function () {
  this.timeout(60_000);
  let deviceService: FakeDeviceService;
  let server: TestServer;

  const zone = (id: string, parentZoneId: string | null) =>
    deviceService.records.set(`/device/v1/zones/${id}`, { id, name: `Zone ${id}`, parentZoneId, workspace: server.workspace });
  const found = async (zoneId: string) => {
    const res = await server.request('GET', `/booking/v1/free-resources?${window}&zoneId=${zoneId}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body.resources as { resourceId: string }[]).map((r) => r.resourceId).sort();
  };

  before(async () => {
    deviceService = await startFakeDeviceService();
    server = await startTestServer({ PLATFORM_DEVICE_SERVICE_URL: deviceService.url, DEVICE_SERVICE_TOKEN: 'reconciler' });
    const now = Temporal.Instant.from('2027-01-04T08:00:00Z');
    server.services.now = () => now;
    // campus ⊃ north ⊃ { n1, n2 }; campus ⊃ south ⊃ s1
    zone('campus', null);
    zone('north', 'campus');
    zone('south', 'campus');
    zone('n1', 'north');
    zone('n2', 'north');
    zone('s1', 'south');
    for (const id of ['n1', 'n2', 's1']) {
      const res = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: id } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
  });
  after(async () => {
    await server.stop();
    await deviceService.close();
  });

  it('knows each registration\'s ancestors from the device service', async () => {
    expect(await found('campus')).to.deep.equal(['n1', 'n2', 's1']);
    expect(await found('north')).to.deep.equal(['n1', 'n2']);
    expect(await found('s1')).to.deep.equal(['s1']);
  });

  it('moves a resource with its zone through the same refresh as its name', async () => {
    zone('n2', 'south');
    // The service's directory remembers records for five minutes; a fresh one reads them now.
    await reconcileResources(server.services, createRemoteDeviceDirectory(deviceService.url), 'Bearer reconciler');
    expect(await found('north')).to.deep.equal(['n1']);
    expect(await found('south')).to.deep.equal(['n2', 's1']);
  });
});
