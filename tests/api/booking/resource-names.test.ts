import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { reconcileResources } from '../../../src/workers/device/reconcile-resources.js';
import { startWorkers } from '../../../src/workers/start-workers.js';
import { startFakeDeviceService, type FakeDeviceService } from '../../support/fake-device-service.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { fastWorkerOptions, waitFor } from '../../workers/worker-test-kit.js';
import { deviceBody } from '../record/record-api.js';

type Change = { changes: Record<string, unknown>; by: string };

/** The resource.update events of a resource's stream: what changed and who changed it. */
const updates = async (server: TestServer, id: string): Promise<Change[]> =>
  (await server.services.eventStore.readStream(`resource-${id}`))
    .filter((e) => e.type === 'ResourceUpdated')
    .map((e) => {
      const { changes, by } = e.data as Change;
      return { changes, by };
    });

const register = async (server: TestServer, resourceType: 'zone' | 'device', resourceId: string) => {
  const res = await server.request('POST', '/booking/v1/resources', { body: { resourceType, resourceId } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body as { id: string; resourceName: string };
};

const nameOf = async (server: TestServer, id: string) => {
  const res = await server.request('GET', `/booking/v1/resources/${id}`);
  expect(res.status).to.equal(200);
  return res.body.resourceName as string;
};

describe("a resource follows the renames of this service's own zones and devices", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  const createZone = async (id: string, name: string, workspace = server.workspace, token?: string) => {
    const res = await server.request('POST', '/device/v1/zones', { token, body: { id, name, parentZoneId: null, workspace } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  };

  it('renames the resource of a zone renamed by PATCH at once, as a resource update by the renamer', async () => {
    await createZone('room-1', 'Room 1');
    const resource = await register(server, 'zone', 'room-1');
    expect(resource.resourceName).to.equal('Room 1');

    const patched = await server.request('PATCH', '/device/v1/zones/room-1', { token: server.token({ level: 'LV2', sub: 'zone-admin' }), body: { name: 'Blue room' } });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(await nameOf(server, resource.id)).to.equal('Blue room');
    expect(await updates(server, resource.id)).to.deep.equal([{ changes: { resourceName: 'Blue room' }, by: 'zone-admin' }]);
  });

  it('renames the resource of a device replaced by PUT', async () => {
    expect((await server.request('POST', '/device/v1/devices', { body: deviceBody('screen-1', server.workspace) })).status).to.equal(201);
    const resource = await register(server, 'device', 'screen-1');
    const replaced = await server.request('PUT', '/device/v1/devices/screen-1', { body: deviceBody('screen-1', server.workspace, { name: 'Lobby screen' }) });
    expect(replaced.status, JSON.stringify(replaced.body)).to.equal(200);
    expect(await nameOf(server, resource.id)).to.equal('Lobby screen');
  });

  it('leaves the name alone when another field changes, and does not touch the same id in another workspace', async () => {
    await createZone('room-2', 'Room 2');
    const resource = await register(server, 'zone', 'room-2');
    await createZone('floor', 'Floor');
    expect((await server.request('PATCH', '/device/v1/zones/room-2', { body: { parentZoneId: 'floor' } })).status).to.equal(200);

    const elsewhere = randomUUID();
    const root = server.token({ level: 'LV1', sub: 'root', workspace: null });
    await createZone('room-2', 'Room 2', elsewhere, root);
    const renamedElsewhere = await server.request('PATCH', '/device/v1/zones/room-2', { token: root, headers: { 'x-workspace': elsewhere }, body: { name: 'Other room' } });
    expect(renamedElsewhere.status, JSON.stringify(renamedElsewhere.body)).to.equal(200);
    expect(renamedElsewhere.body.workspace).to.equal(elsewhere);

    expect(await nameOf(server, resource.id)).to.equal('Room 2');
    expect(await updates(server, resource.id)).to.deep.equal([]);
  });

  it('a reconciliation round takes over a name changed behind the service\'s back', async () => {
    await createZone('room-3', 'Room 3');
    const resource = await register(server, 'zone', 'room-3');
    await server.services.db.updateTable('zones').set({ name: 'Quiet room' }).where('workspace', '=', server.workspace).where('id', '=', 'room-3').execute();
    const round = await reconcileResources(server.services, server.services.devices);
    expect(round.renamed).to.be.greaterThanOrEqual(1);
    expect(await nameOf(server, resource.id)).to.equal('Quiet room');
    expect(await updates(server, resource.id)).to.deep.equal([{ changes: { resourceName: 'Quiet room' }, by: 'system' }]);
    expect(await reconcileResources(server.services, server.services.devices)).to.deep.equal({ deactivated: 0, renamed: 0 });
  });
});

describe('a resource follows the renames of a remote device service', function () {
  this.timeout(60_000);
  let deviceService: FakeDeviceService;
  let server: TestServer;
  before(async () => {
    deviceService = await startFakeDeviceService();
    server = await startTestServer({ PLATFORM_DEVICE_SERVICE_URL: deviceService.url, DEVICE_SERVICE_TOKEN: 'reconciler' });
  });
  after(async () => {
    await server.stop();
    await deviceService.close();
  });

  it('picks up a rename in the next reconciliation round of the running worker', async () => {
    const zone = (name: string) => ({ id: 'remote-room', name, parentZoneId: null, workspace: server.workspace });
    deviceService.records.set('/device/v1/zones/remote-room', zone('Remote room'));
    const resource = await register(server, 'zone', 'remote-room');
    expect(resource.resourceName).to.equal('Remote room');

    deviceService.records.set('/device/v1/zones/remote-room', zone('Harbour room'));
    expect(await nameOf(server, resource.id)).to.equal('Remote room');
    const workers = startWorkers(server.services, { ...fastWorkerOptions, reconcileIntervalMs: 100 });
    try {
      await waitFor(async () => (await nameOf(server, resource.id)) === 'Harbour room', { timeoutMs: 30_000, what: 'the reconciliation to rename' });
    } finally {
      await workers.stop();
    }
    expect(await updates(server, resource.id)).to.deep.equal([{ changes: { resourceName: 'Harbour room' }, by: 'system' }]);
    expect(deviceService.requests.at(-1)!.authorization).to.equal('Bearer reconciler');
  });
});
