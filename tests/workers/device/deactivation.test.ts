import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { DomainError } from '../../../src/domain/domain-error.js';
import { createRemoteDeviceDirectory } from '../../../src/infra/device-service/remote-device-directory.js';
import { reconcileResources } from '../../../src/workers/device/reconcile-resources.js';
import { startWorkers, type RunningWorkers } from '../../../src/workers/start-workers.js';
import { bookingBody, setClock } from '../../api/booking/booking-api.js';
import { deviceRecord } from '../../support/record-samples.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { fastWorkerOptions, waitFor } from '../worker-test-kit.js';

describe('deactivation of resources the device service lost', () => {
  let server: TestServer;
  let workers: RunningWorkers;

  const register = async (resourceType: 'zone' | 'device', resourceId: string) => {
    const res = await server.request('POST', '/booking/v1/resources', { body: { resourceType, resourceId } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };
  const createZone = async (id: string) => {
    const res = await server.request('POST', '/device/v1/zones', { body: { id, name: `Zone ${id}`, parentZoneId: null, workspace: server.workspace } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  };
  const resource = async (id: string) => (await server.request('GET', `/booking/v1/resources/${id}`)).body;
  const deactivations = async (id: string) => (await server.services.eventStore.readStream(`resource-${id}`)).filter((e) => e.type === 'ResourceDeactivated');

  before(async () => {
    server = await startTestServer();
    workers = startWorkers(server.services, fastWorkerOptions);
  });
  after(async () => {
    await workers.stop();
    await server.stop();
  });

  it('deactivates the resource of a deleted zone: kept, inactive, an event in its stream, no new bookings', async () => {
    await createZone('zone-doomed');
    const id = await register('zone', 'zone-doomed');
    expect((await server.request('DELETE', '/device/v1/zones/zone-doomed')).status).to.equal(200);
    await waitFor(async () => (await resource(id)).isActive === false, { what: 'the deactivation' });
    const [event] = await deactivations(id);
    expect(event!.data).to.include({ id, reason: 'device record deleted', by: 'system' });
    const listed = await server.request('GET', '/booking/v1/resources?isActive=false');
    expect(listed.body.data.map((r: { id: string }) => r.id)).to.include(id);

    setClock(server, '2031-03-01T08:00:00Z');
    const refused = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('zone-doomed', '2031-03-02T09:00:00Z', '2031-03-02T10:00:00Z') });
    expect(refused.status).to.equal(422);
    expect(refused.body.policy).to.equal('isActive');
  });

  it('deactivates the resource of a deleted device, once', async () => {
    expect((await server.request('POST', '/device/v1/devices', { body: deviceRecord(server.workspace, 'dev-doomed') })).status).to.equal(201);
    const id = await register('device', 'dev-doomed');
    const untouched = await register('zone', (await createZone('zone-kept'), 'zone-kept'));
    expect((await server.request('DELETE', '/device/v1/devices/dev-doomed')).status).to.equal(200);
    await waitFor(async () => (await resource(id)).isActive === false, { what: 'the deactivation' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await deactivations(id)).to.have.length(1);
    expect((await resource(untouched)).isActive).to.equal(true);
  });

  it('leaves alone a resource registered after the deletion, for a record created again', async () => {
    await workers.stop();
    await createZone('zone-reborn');
    await server.request('DELETE', '/device/v1/zones/zone-reborn');
    await createZone('zone-reborn');
    const id = await register('zone', 'zone-reborn');
    workers = startWorkers(server.services, fastWorkerOptions);
    await createZone('zone-marker');
    const marker = await register('zone', 'zone-marker');
    await server.request('DELETE', '/device/v1/zones/zone-marker');
    await waitFor(async () => (await resource(marker)).isActive === false, { what: 'the later deletion to be handled' });
    expect((await resource(id)).isActive).to.equal(true);
  });

  it('reconciliation deactivates a resource whose record is gone without an event', async () => {
    await createZone('zone-vanished');
    const id = await register('zone', 'zone-vanished');
    await server.services.db.deleteFrom('zones').where('workspace', '=', server.workspace).where('id', '=', 'zone-vanished').execute();
    expect(await reconcileResources(server.services, server.services.devices)).to.deep.equal({ deactivated: 1, renamed: 0 });
    expect((await resource(id)).isActive).to.equal(false);
    expect(await reconcileResources(server.services, server.services.devices)).to.deep.equal({ deactivated: 0, renamed: 0 });
  });
});

describe('reconciliation against a remote device service', () => {
  const token = 'reconciler-token';
  const known = new Set<string>();
  const authorizations: (string | undefined)[] = [];
  let deviceService: http.Server;
  let baseUrl: string;
  let server: TestServer;

  before(async () => {
    deviceService = http.createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      const id = decodeURIComponent(req.url!.split('/').pop()!);
      if (!known.has(id)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, name: `Zone ${id}`, workspace: server.workspace, parentZoneId: null }));
    });
    await new Promise<void>((resolve) => deviceService.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(deviceService.address() as AddressInfo).port}`;
    server = await startTestServer({ PLATFORM_DEVICE_SERVICE_URL: baseUrl, DEVICE_SERVICE_TOKEN: token, RECONCILE_INTERVAL_SECONDS: '1' });
  });
  after(async () => {
    await server.stop();
    deviceService.closeAllConnections();
    await new Promise((resolve) => deviceService.close(resolve));
  });

  it('deactivates what answers 404 from the running worker (with the reconciliation token), and nothing while the service is down', async () => {
    known.add('zone-here').add('zone-leaving');
    const ids: Record<string, string> = {};
    for (const zone of known) {
      const res = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: zone } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      ids[zone] = res.body.id;
    }
    known.delete('zone-leaving');
    const isActive = async (zone: string) => (await server.request('GET', `/booking/v1/resources/${ids[zone]}`)).body.isActive as boolean;

    // Down: every lookup fails, nothing changes.
    const downUrl = 'http://127.0.0.1:9';
    const down = await reconcileResources(server.services, createRemoteDeviceDirectory(downUrl, { timeoutMs: 500 }), `Bearer ${token}`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(down).to.be.instanceOf(DomainError);
    expect(await isActive('zone-leaving')).to.equal(true);

    const workers = startWorkers(server.services, { ...fastWorkerOptions, reconcileIntervalMs: 100 });
    try {
      await waitFor(async () => !(await isActive('zone-leaving')), { what: 'the reconciliation' });
    } finally {
      await workers.stop();
    }
    expect(await isActive('zone-here')).to.equal(true);
    expect(authorizations.at(-1)).to.equal(`Bearer ${token}`);
  });
});
