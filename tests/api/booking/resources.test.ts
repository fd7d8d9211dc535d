import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { seedZone } from '../../support/device-records.js';
import { startFakeDeviceService, type FakeDeviceService } from '../../support/fake-device-service.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const resources = '/booking/v1/resources';

describe('bookable resources over HTTP', () => {
  let server: TestServer;
  let zoneCount = 0;
  const newZone = async (name?: string) => {
    const id = `zone-${++zoneCount}`;
    await seedZone(server.database.db, server.workspace, id, name);
    return id;
  };
  const register = async (body: Record<string, unknown> = {}, token?: string) =>
    server.request('POST', resources, { body: { resourceType: 'zone', resourceId: await newZone(), ...body }, token });

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  describe('registration', () => {
    it('registers a zone with the policy defaults and its name from the device records', async () => {
      const resourceId = await newZone('Board room');
      const res = await server.request('POST', resources, {
        body: { resourceType: 'zone', resourceId, capacity: 8, groupId: 'g-1', bookingPolicy: { maxDurationMinutes: 240 } },
      });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ resourceType: 'zone', resourceId, resourceName: 'Board room', workspace: server.workspace, isActive: true, capacity: 8, groupId: 'g-1', availability: null });
      expect(res.body.bookingPolicy).to.deep.equal({
        maxDurationMinutes: 240,
        maxAdvanceDays: 180,
        minNoticeMinutes: 0,
        allowRecurring: true,
        autoConfirm: true,
        maxBookingsPerUser: null,
        cancellationPolicy: { minNoticeMinutes: 0 },
        gracePeriodMinutes: 15,
        bufferBeforeMinutes: 0,
        bufferAfterMinutes: 0,
        approvers: [],
        approvalDeadlineMinutes: null,
        approvalReminderMinutes: null,
        schedulingConflictsAllowed: 0,
      });
      expect(res.body.createdAt).to.match(/Z$/);
      const read = await server.request('GET', `${resources}/${res.body.id}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(res.body);
    });

    it('keeps availability with its canonical zone, "24:00" allowed', async () => {
      const availability = { timeZone: 'Europe/Berlin', hours: { monday: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '24:00' }], tuesday: [] } };
      const res = await register({ availability });
      expect(res.status).to.equal(201);
      expect(res.body.availability).to.deep.equal(availability);
    });

    it('registers a zone only once per workspace (409), also under concurrent requests', async () => {
      const resourceId = await newZone();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => server.request('POST', resources, { body: { resourceType: 'zone', resourceId } })),
      );
      expect(results.filter((r) => r.status === 201)).to.have.length(1);
      const refused = results.filter((r) => r.status === 409);
      expect(refused).to.have.length(9);
      expect(refused[0]!.body.reason).to.equal('already_registered');
      const list = await server.request('GET', `${resources}?limit=100`);
      expect(list.body.data.filter((r: { resourceId: string }) => r.resourceId === resourceId)).to.have.length(1);
    });

    it('answers 422 resource_not_found for a zone the device records do not have', async () => {
      const res = await server.request('POST', resources, { body: { resourceType: 'zone', resourceId: 'no-such-zone' } });
      expect(res.status).to.equal(422);
      expect(res.body.reason).to.equal('resource_not_found');
    });

    it('does not find a zone of another workspace', async () => {
      await seedZone(server.database.db, randomUUID(), 'foreign-zone');
      const res = await server.request('POST', resources, { body: { resourceType: 'zone', resourceId: 'foreign-zone' } });
      expect(res.status).to.equal(422);
    });

    const badBodies: [string, Record<string, unknown>][] = [
      ['an unknown resourceType', { resourceType: 'room' }],
      ['an unknown time zone', { availability: { timeZone: 'Mars/Olympus', hours: {} } }],
      ['a malformed window', { availability: { timeZone: 'UTC', hours: { monday: [{ start: '8am', end: '12:00' }] } } }],
      ['a window ending before it starts', { availability: { timeZone: 'UTC', hours: { monday: [{ start: '12:00', end: '08:00' }] } } }],
      ['a negative policy number', { bookingPolicy: { maxDurationMinutes: -5 } }],
      ['an unknown policy field', { bookingPolicy: { discount: 1 } }],
      ['a read-only field', { id: randomUUID() }],
      ['isActive on registration', { isActive: false }],
      ['a non-uuid workspace', { workspace: 'ws-1' }],
    ];
    for (const [name, body] of badBodies) {
      it(`answers 400 to ${name} and stores nothing`, async () => {
        const before = await server.request('GET', `${resources}?limit=100`);
        const res = await register(body);
        expect(res.status).to.equal(400);
        expect(res.body.statusCode).to.equal(400);
        const after = await server.request('GET', `${resources}?limit=100`);
        expect(after.body.total).to.equal(before.body.total);
      });
    }

    it('answers 400 to a body that is not JSON', async () => {
      const res = await server.request('POST', resources, { body: '{"resourceType":', headers: { 'content-type': 'application/json' } });
      expect(res.status).to.equal(400);
      expect(res.body.statusCode).to.equal(400);
    });

    for (const level of ['LV4', 'LV5'] as const) {
      it(`refuses ${level} with 403`, async () => {
        const res = await register({}, server.token({ level }));
        expect(res.status).to.equal(403);
      });
    }

    it('refuses registration into another workspace with 400 naming workspace (CONTRACT §2), except for LV1', async () => {
      const other = randomUUID();
      expect((await register({ workspace: other })).status).to.equal(400);
      await seedZone(server.database.db, other, 'lv1-zone');
      const res = await server.request('POST', resources, {
        body: { resourceType: 'zone', resourceId: 'lv1-zone', workspace: other },
        token: server.token({ level: 'LV1', workspace: null }),
      });
      expect(res.status).to.equal(201);
      expect(res.body.workspace).to.equal(other);
    });

    it('lets LV3 register only into its own groups', async () => {
      const lv3 = server.token({ level: 'LV3', groups: ['g-a'] });
      expect((await register({ groupId: 'g-b' }, lv3)).status).to.equal(403);
      expect((await register({}, lv3)).status).to.equal(403);
      expect((await register({ groupId: 'g-a' }, lv3)).status).to.equal(201);
    });
  });

  describe('reading and listing', () => {
    it('answers 404 for a resource of another workspace and for unknown ids, 400 for a non-uuid id', async () => {
      const created = await register();
      const stranger = server.token({ workspace: randomUUID() });
      expect((await server.request('GET', `${resources}/${created.body.id}`, { token: stranger })).status).to.equal(404);
      expect((await server.request('GET', `${resources}/${randomUUID()}`)).status).to.equal(404);
      expect((await server.request('GET', `${resources}/not-a-uuid`)).status).to.equal(400);
    });

    it('lets every level read resources of its workspace', async () => {
      const created = await register();
      for (const level of ['LV4', 'LV5'] as const) {
        expect((await server.request('GET', `${resources}/${created.body.id}`, { token: server.token({ level }) })).status).to.equal(200);
      }
    });

    it('lists in the paginated envelope with filters', async () => {
      const own = await startTestServer();
      try {
        for (let i = 0; i < 3; i++) {
          await seedZone(own.database.db, own.workspace, `z${i}`);
          await own.request('POST', resources, { body: { resourceType: 'zone', resourceId: `z${i}` } });
        }
        const first = await own.request('GET', `${resources}?limit=2&page=1`);
        expect(first.status).to.equal(200);
        expect(first.body).to.include({ count: 2, total: 3, page: 1, pageCount: 2 });
        const second = await own.request('GET', `${resources}?limit=2&page=2`);
        expect(second.body).to.include({ count: 1, total: 3, page: 2, pageCount: 2 });
        expect((await own.request('GET', `${resources}?resourceType=device`)).body.total).to.equal(0);
        const id = first.body.data[0].id;
        await own.request('PATCH', `${resources}/${id}`, { body: { isActive: false } });
        expect((await own.request('GET', `${resources}?isActive=false`)).body.data.map((r: { id: string }) => r.id)).to.deep.equal([id]);
        expect((await own.request('GET', `${resources}?isActive=true`)).body.total).to.equal(2);
        expect((await own.request('GET', `${resources}?limit=101`)).status).to.equal(400);
        expect((await own.request('GET', `${resources}?page=0`)).status).to.equal(400);
        const foreign = await own.request('GET', `${resources}?workspace=${randomUUID()}`);
        expect(foreign.status).to.equal(400, 'a non-LV1 caller naming another workspace (CONTRACT §2)');
      } finally {
        await own.stop();
      }
    });
  });

  describe('changing and removing', () => {
    it('merges the booking policy field by field and keeps the rest', async () => {
      const created = await register({ bookingPolicy: { maxDurationMinutes: 60, autoConfirm: false } });
      const res = await server.request('PATCH', `${resources}/${created.body.id}`, {
        body: { capacity: 12, bookingPolicy: { cancellationPolicy: { minNoticeMinutes: 30 }, gracePeriodMinutes: 5 } },
      });
      expect(res.status).to.equal(200);
      expect(res.body.capacity).to.equal(12);
      expect(res.body.bookingPolicy).to.include({ maxDurationMinutes: 60, autoConfirm: false, gracePeriodMinutes: 5 });
      expect(res.body.bookingPolicy.cancellationPolicy).to.deep.equal({ minNoticeMinutes: 30 });
      expect(Date.parse(res.body.updatedAt)).to.be.at.least(Date.parse(created.body.updatedAt));
    });

    it('refuses to write identity fields (400)', async () => {
      const created = await register();
      for (const body of [{ resourceId: 'x' }, { workspace: randomUUID() }, { id: randomUUID() }, { createdAt: new Date().toISOString() }]) {
        expect((await server.request('PATCH', `${resources}/${created.body.id}`, { body })).status).to.equal(400);
      }
    });

    it('refuses LV4 changes with 403 and hides other workspaces with 404', async () => {
      const created = await register();
      expect((await server.request('PATCH', `${resources}/${created.body.id}`, { body: { capacity: 1 }, token: server.token({ level: 'LV4' }) })).status).to.equal(403);
      expect((await server.request('PATCH', `${resources}/${created.body.id}`, { body: { capacity: 1 }, token: server.token({ workspace: randomUUID() }) })).status).to.equal(404);
      expect((await server.request('DELETE', `${resources}/${created.body.id}`, { token: server.token({ level: 'LV5' }) })).status).to.equal(403);
    });

    it('lets LV3 change only resources of its groups and move them only into its groups', async () => {
      const created = await register({ groupId: 'g-x' });
      const lv3 = server.token({ level: 'LV3', groups: ['g-x'] });
      expect((await server.request('PATCH', `${resources}/${created.body.id}`, { body: { capacity: 3 }, token: lv3 })).status).to.equal(200);
      expect((await server.request('PATCH', `${resources}/${created.body.id}`, { body: { groupId: 'g-y' }, token: lv3 })).status).to.equal(403);
      const outsider = server.token({ level: 'LV3', groups: ['g-z'] });
      expect((await server.request('PATCH', `${resources}/${created.body.id}`, { body: { capacity: 4 }, token: outsider })).status).to.equal(403);
    });

    it('deletes with 204: reads answer 404, lists leave it out, the zone can be registered again', async () => {
      const created = await register();
      expect((await server.request('DELETE', `${resources}/${created.body.id}`)).status).to.equal(204);
      expect((await server.request('GET', `${resources}/${created.body.id}`)).status).to.equal(404);
      expect((await server.request('DELETE', `${resources}/${created.body.id}`)).status).to.equal(404);
      const list = await server.request('GET', `${resources}?limit=100`);
      expect(list.body.data.map((r: { id: string }) => r.id)).not.to.include(created.body.id);
      const again = await server.request('POST', resources, { body: { resourceType: 'zone', resourceId: created.body.resourceId } });
      expect(again.status).to.equal(201);
    });

    it('records every change as an event in the resource stream', async () => {
      const created = await register();
      await server.request('PATCH', `${resources}/${created.body.id}`, { body: { capacity: 2 } });
      await server.request('DELETE', `${resources}/${created.body.id}`);
      const events = await server.services.eventStore.readStream(`resource-${created.body.id}`);
      expect(events.map((e) => e.type)).to.deep.equal(['ResourceRegistered', 'ResourceUpdated', 'ResourceRemoved']);
    });
  });
});

describe('bookable resources against a remote device service', () => {
  let devices: FakeDeviceService;
  let server: TestServer;
  before(async () => {
    devices = await startFakeDeviceService();
    server = await startTestServer({ PLATFORM_DEVICE_SERVICE_URL: devices.url });
    devices.records.set('/device/v1/devices/dev-1', { id: 'dev-1', name: 'Projector', workspace: server.workspace });
  });
  after(async () => {
    await server.stop();
    await devices.close();
  });

  it('reads the device with the caller token and takes its name', async () => {
    const token = server.token();
    const res = await server.request('POST', resources, { body: { resourceType: 'device', resourceId: 'dev-1' }, token });
    expect(res.status).to.equal(201);
    expect(res.body.resourceName).to.equal('Projector');
    expect(devices.requests.at(-1)).to.deep.equal({ path: '/device/v1/devices/dev-1', authorization: `Bearer ${token}` });
  });

  it('answers 422 resource_not_found when the device service answers 404', async () => {
    const res = await server.request('POST', resources, { body: { resourceType: 'zone', resourceId: 'missing' } });
    expect(res.status).to.equal(422);
    expect(res.body.reason).to.equal('resource_not_found');
  });

  it('answers 503 and stores nothing when the device service fails', async () => {
    const res = await server.request('POST', resources, { body: { resourceType: 'zone', resourceId: 'boom-1' } });
    expect(res.status).to.equal(503);
    expect((await server.request('GET', resources)).body.data.map((r: { resourceId: string }) => r.resourceId)).not.to.include('boom-1');
  });

  it('answers 503 and stores nothing when the device service is down', async () => {
    const down = await startTestServer({ PLATFORM_DEVICE_SERVICE_URL: 'http://127.0.0.1:9' });
    try {
      const res = await down.request('POST', resources, { body: { resourceType: 'zone', resourceId: 'z' } });
      expect(res.status).to.equal(503);
      expect((await down.request('GET', resources)).body.total).to.equal(0);
    } finally {
      await down.stop();
    }
  });

  it('caches found records for five minutes, per caller credentials', async () => {
    devices.records.set('/device/v1/zones/cached', { id: 'cached', name: 'Cached', workspace: server.workspace });
    // One token for every call: the cache is keyed by the caller's credentials, and a token minted a second later is another one.
    const token = server.token();
    const created = await server.request('POST', resources, { token, body: { resourceType: 'zone', resourceId: 'cached' } });
    await server.request('DELETE', `${resources}/${created.body.id}`, { token });
    const hits = devices.requests.length;
    expect((await server.request('POST', resources, { token, body: { resourceType: 'zone', resourceId: 'cached' } })).status).to.equal(201);
    expect(devices.requests.length).to.equal(hits);
  });
});

describe('health', () => {
  it('answers ok with the database up, without a token', async () => {
    // Inline projections: with PROJECTIONS=async the body also reports the runner (operability.test.ts).
    const server = await startTestServer({ PROJECTIONS: 'inline' });
    try {
      const res = await server.request('GET', '/booking/v1/health', { token: null });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'ok', info: { database: { status: 'up' } }, error: null, details: { database: { status: 'up' } } });
    } finally {
      await server.stop();
    }
  });

  it('answers 503 with status error when the database is down', async function () {
    const server = await startTestServer();
    try {
      // Up first: the health check's own connection is open (a Kysely never used has nothing to destroy).
      expect((await server.request('GET', '/booking/v1/health', { token: null })).status).to.equal(200);
      // Both ways to the database gone: the request pool and the health check's own connection.
      await server.services.db.destroy();
      if (server.services.checks !== server.services.db) await server.services.checks.destroy();
      const res = await server.request('GET', '/booking/v1/health', { token: null });
      expect(res.status).to.equal(503);
      expect(res.body.status).to.equal('error');
      expect(res.body.details.database.status).to.equal('down');
    } finally {
      await server.close().catch(() => undefined);
      await server.database.destroy().catch(() => undefined);
    }
  });

  it('serves the OpenAPI description as YAML', async () => {
    const server = await startTestServer();
    try {
      const res = await server.request('GET', '/booking/docs-yaml', { token: null });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/yaml/);
      expect(res.body).to.match(/^openapi: 3\.0\.3/m);
    } finally {
      await server.stop();
    }
  });
});
