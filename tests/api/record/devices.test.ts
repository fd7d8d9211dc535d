import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { deviceBody, ids, recordEvents } from './record-api.js';

const D = '/device/v1/devices';

describe('device records over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  let w: string;
  const other = randomUUID();
  let lv1: string;
  let lv1Anywhere: string;
  let lv2Other: string;

  before(async () => {
    server = await startTestServer();
    w = server.workspace;
    lv1 = server.token({ level: 'LV1', sub: 'root' });
    lv1Anywhere = server.token({ level: 'LV1', sub: 'root', workspace: null });
    lv2Other = server.token({ level: 'LV2', sub: 'other-admin', workspace: other });
  });
  after(() => server.stop());

  describe('bodies', () => {
    it('requires every field of spec 2.1 on create and replace', async () => {
      for (const field of Object.keys(deviceBody('x', w))) {
        const { [field]: _left, ...body } = deviceBody('missing', w);
        const res = await server.request('POST', D, { body });
        expect(res.status, field).to.equal(400);
        expect(res.body.message, field).to.include(field);
      }
      await server.request('POST', D, { body: deviceBody('whole', w) });
      const { timeout: _t, ...partial } = deviceBody('whole', w);
      expect((await server.request('PUT', `${D}/whole`, { body: partial })).status).to.equal(400);
    });

    it('validates every field by type and refuses unknown fields', async () => {
      const wrong: Record<string, unknown> = {
        shortName: 1, name: null, type: [], visible: 'yes', extra: [1], decoder: {}, extName: true,
        enableAlert: 0, timeout: '30', stateRef: ['a', 2], workspace: 'not-a-uuid', id: 'has space',
      };
      for (const [field, value] of Object.entries(wrong)) {
        expect((await server.request('POST', D, { body: deviceBody('typed', w, { [field]: value }) })).status, field).to.equal(400);
      }
      expect((await server.request('POST', D, { body: { ...deviceBody('typed', w), apiKeyHash: 'x' } })).status).to.equal(400);
      expect((await server.request('PATCH', `${D}/whole`, { body: { color: 'red' } })).status).to.equal(400);
      expect((await server.request('PATCH', `${D}/whole`, { body: {} })).status).to.equal(400);
      expect((await server.request('GET', `${D}/typed`)).status).to.equal(404);
    });

    it('keeps extra as an object, stateRef as strings and timeout as a number', async () => {
      const body = deviceBody('shapes', w, { extra: { nested: { deep: [1, 'two', null] } }, stateRef: [], timeout: 0.25 });
      expect((await server.request('POST', D, { body })).body).to.deep.equal(body);
      expect((await server.request('GET', `${D}/shapes`)).body).to.deep.equal(body);
    });

    it('refuses a second device with the same id in a workspace (409), but not in another', async () => {
      await server.request('POST', D, { body: deviceBody('twin', w) });
      const again = await server.request('POST', D, { body: deviceBody('twin', w, { name: 'other' }) });
      expect(again.status).to.equal(409);
      expect(again.body).to.deep.equal({ statusCode: 409, message: "Device 'twin' already exists" });
      expect((await server.request('POST', D, { body: deviceBody('twin', other), token: lv2Other })).status).to.equal(201);
    });

    it('keeps id and workspace: another id in PATCH or PUT is 400, another workspace 403 (400 for LV1)', async () => {
      expect((await server.request('PATCH', `${D}/whole`, { body: { id: 'renamed' } })).status).to.equal(400);
      expect((await server.request('PUT', `${D}/whole`, { body: deviceBody('renamed', w) })).status).to.equal(400);
      expect((await server.request('PATCH', `${D}/whole`, { body: { workspace: other } })).status).to.equal(403);
      expect((await server.request('PATCH', `${D}/whole`, { body: { workspace: other }, token: lv1 })).status).to.equal(400);
      expect((await server.request('PATCH', `${D}/whole`, { body: { id: 'whole', workspace: w, name: 'same key' } })).status).to.equal(200);
    });

    it('reserves the id self for PUT /devices/self', async () => {
      expect((await server.request('POST', D, { body: deviceBody('self', w) })).status).to.equal(400);
    });
  });

  describe('permissions', () => {
    it('needs a platform token on every route but /self', async () => {
      for (const [method, path, body] of [
        ['GET', D],
        ['GET', `${D}/whole`],
        ['POST', D, deviceBody('anonymous', w)],
        ['POST', `${D}/bulk`, { bulk: [deviceBody('anonymous', w)] }],
        ['PATCH', `${D}/whole`, { name: 'x' }],
        ['PUT', `${D}/whole`, deviceBody('whole', w)],
        ['DELETE', `${D}/whole`],
        ['POST', `${D}/export`, { excludeFields: [] }],
        ['POST', `${D}/whole/apikey`],
        ['POST', `${D}/whole/workspace`, { workspace: { id: other } }],
      ] as [string, string, unknown?][]) {
        expect((await server.request(method, path, { token: null, body })).status, `${method} ${path}`).to.equal(401);
      }
      expect((await server.request('GET', D, { token: 'not-a-jwt' })).status).to.equal(401);
    });

    it('lets LV5 read and only LV1/LV2 write', async () => {
      await server.request('POST', D, { body: deviceBody('perm', w) });
      for (const level of ['LV3', 'LV4', 'LV5'] as const) {
        const token = server.token({ level });
        expect((await server.request('GET', `${D}/perm`, { token })).status, level).to.equal(200);
        expect((await server.request('GET', D, { token })).status, level).to.equal(200);
        expect((await server.request('POST', D, { body: deviceBody(`new-${level}`, w), token })).status, level).to.equal(403);
        expect((await server.request('POST', `${D}/bulk`, { body: { bulk: [deviceBody(`b-${level}`, w)] }, token })).status, level).to.equal(403);
        expect((await server.request('PATCH', `${D}/perm`, { body: { name: 'x' }, token })).status, level).to.equal(403);
        expect((await server.request('PUT', `${D}/perm`, { body: deviceBody('perm', w), token })).status, level).to.equal(403);
        expect((await server.request('DELETE', `${D}/perm`, { token })).status, level).to.equal(403);
        expect((await server.request('POST', `${D}/perm/apikey`, { token })).status, level).to.equal(403);
      }
    });

    it('keeps LV2 to its workspace: a body naming another is 403', async () => {
      expect((await server.request('POST', D, { body: deviceBody('elsewhere', other) })).status).to.equal(403);
      expect((await server.request('POST', `${D}/bulk`, { body: { bulk: [deviceBody('ok-1', w), deviceBody('elsewhere', other)] } })).status).to.equal(403);
      expect((await server.request('GET', `${D}/ok-1`)).status).to.equal(404);
    });

    it('hides other workspaces’ records: 404 on every operation, absent from lists', async () => {
      await server.request('POST', D, { body: deviceBody('theirs', other), token: lv2Other });
      for (const [method, path, body] of [
        ['GET', `${D}/theirs`],
        ['PATCH', `${D}/theirs`, { name: 'x' }],
        ['PUT', `${D}/theirs`, deviceBody('theirs', w)],
        ['DELETE', `${D}/theirs`],
        ['POST', `${D}/theirs/apikey`],
        ['POST', `${D}/theirs/workspace`, { workspace: { id: w } }],
      ] as [string, string, unknown?][]) {
        expect((await server.request(method, path, { body })).status, `${method} ${path}`).to.equal(404);
      }
      expect(ids(await server.request('GET', `${D}?limit=100`))).not.to.include('theirs');
      expect((await server.request('GET', `${D}?filter=${encodeURIComponent(`workspace||$eq||${other}`)}`)).body.total).to.equal(0);
      expect((await server.request('GET', D, { headers: { 'x-workspace': other } })).status).to.equal(403);
    });

    it('lets LV1 act anywhere: the body decides on create, X-Workspace on reads and writes', async () => {
      expect((await server.request('POST', D, { body: deviceBody('by-root', other), token: lv1 })).status).to.equal(201);
      expect((await server.request('GET', `${D}/by-root`, { token: lv1 })).status).to.equal(404);
      const headers = { 'x-workspace': other };
      expect((await server.request('GET', `${D}/by-root`, { token: lv1, headers })).body.workspace).to.equal(other);
      expect((await server.request('PATCH', `${D}/by-root`, { token: lv1, headers, body: { name: 'renamed' } })).body.name).to.equal('renamed');
      expect(ids(await server.request('GET', D, { token: lv1, headers }))).to.include.members(['by-root', 'theirs']);
      expect((await server.request('POST', D, { body: deviceBody('mismatch', w), token: lv1, headers })).status).to.equal(400);
      expect((await server.request('GET', D, { token: lv1, headers: { 'x-workspace': 'nope' } })).status).to.equal(400);
    });

    it('lets an LV1 token without a workspace list everything and read unambiguous ids; an ambiguous id asks for X-Workspace', async () => {
      const all = await server.request('GET', `${D}?filter=${encodeURIComponent('id||$eq||twin')}`, { token: lv1Anywhere });
      expect(all.body.data.map((d: { workspace: string }) => d.workspace).sort()).to.deep.equal([w, other].sort());
      expect((await server.request('GET', `${D}/by-root`, { token: lv1Anywhere })).body.workspace).to.equal(other);
      const ambiguous = await server.request('GET', `${D}/twin`, { token: lv1Anywhere });
      expect(ambiguous.status).to.equal(400);
      expect(ambiguous.body.message).to.match(/X-Workspace/);
      expect((await server.request('DELETE', `${D}/twin`, { token: lv1Anywhere })).status).to.equal(400);
      expect((await server.request('GET', `${D}/twin`, { token: lv1Anywhere, headers: { 'x-workspace': other } })).body.workspace).to.equal(other);
    });
  });

  describe('bulk create', () => {
    it('stores nothing when one record is invalid, duplicated or already taken', async () => {
      const count = async () => (await server.request('GET', D)).body.total as number;
      const before = await count();
      const bad = [deviceBody('bulk-1', w), { ...deviceBody('bulk-2', w), timeout: 'soon' }];
      const invalid = await server.request('POST', `${D}/bulk`, { body: { bulk: bad } });
      expect(invalid.status).to.equal(400);
      const twice = await server.request('POST', `${D}/bulk`, { body: { bulk: [deviceBody('bulk-1', w), deviceBody('bulk-1', w)] } });
      expect(twice.status).to.equal(400);
      const taken = await server.request('POST', `${D}/bulk`, { body: { bulk: [deviceBody('bulk-1', w), deviceBody('whole', w)] } });
      expect(taken.status).to.equal(409);
      expect(await count()).to.equal(before);
      expect((await server.request('GET', `${D}/bulk-1`)).status).to.equal(404);
    });

    it('answers the records in the order given', async () => {
      const res = await server.request('POST', `${D}/bulk`, { body: { bulk: ['bulk-c', 'bulk-a', 'bulk-b'].map((id) => deviceBody(id, w)) } });
      expect(res.status).to.equal(201);
      expect(res.body.map((d: { id: string }) => d.id)).to.deep.equal(['bulk-c', 'bulk-a', 'bulk-b']);
    });
  });

  describe('events', () => {
    it('appends device.create, device.update and device.delete with the record, actor and time', async () => {
      const admin = server.token({ level: 'LV2', sub: 'ev-admin' });
      const body = deviceBody('evented', w);
      await server.request('POST', D, { body, token: admin });
      await server.request('PATCH', `${D}/evented`, { body: { name: 'changed' }, token: admin });
      await server.request('PATCH', `${D}/evented`, { body: { name: 'changed' }, token: admin });
      await server.request('DELETE', `${D}/evented`, { token: admin });
      const events = (await recordEvents(server, 'device')).filter((e) => e.stream_id === `device-${w}-evented`);
      expect(events.map((e) => e.event_type)).to.deep.equal(['DeviceCreated', 'DeviceUpdated', 'DeviceDeleted']);
      expect(events[0]!.data).to.deep.include({ workspace: w, id: 'evented', record: body, by: 'ev-admin' });
      expect(events[1]!.data.record).to.deep.equal({ ...body, name: 'changed' });
      expect(events[2]!.data.record).to.deep.equal({ ...body, name: 'changed' });
      expect(Date.parse(events[2]!.data.at as string)).to.be.a('number').and.not.NaN;
    });
  });

  describe('API keys and PUT /devices/self', () => {
    const self = (apiKey: string | null, body: unknown) =>
      server.request('PUT', `${D}/self`, { body, token: null, headers: apiKey === null ? {} : { 'x-api-key': apiKey } });

    it('issues a key once (201, 32 random bytes in base64url) and lets the device replace its record with it', async () => {
      await server.request('POST', D, { body: deviceBody('keyed', w) });
      const issued = await server.request('POST', `${D}/keyed/apikey`);
      expect(issued.status).to.equal(201);
      expect(Object.keys(issued.body)).to.deep.equal(['apiKey']);
      expect(issued.body.apiKey).to.match(/^[A-Za-z0-9_-]{43}$/);
      const body = deviceBody('keyed', w, { name: 'reported by the device', stateRef: ['on'] });
      const res = await self(issued.body.apiKey, body);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(body);
      expect((await server.request('GET', `${D}/keyed`)).body).to.deep.equal(body);
      const [event] = (await recordEvents(server, 'device')).filter((e) => e.stream_id === `device-${w}-keyed` && e.event_type === 'DeviceUpdated');
      expect(event!.data.by).to.equal('device:keyed');
    });

    it('refuses a wrong or missing key with 401, and the earlier key once a new one is issued', async () => {
      const first = (await server.request('POST', `${D}/keyed/apikey`)).body.apiKey as string;
      const second = (await server.request('POST', `${D}/keyed/apikey`)).body.apiKey as string;
      expect(second).not.to.equal(first);
      const body = deviceBody('keyed', w);
      expect((await self(first, body)).status).to.equal(401);
      expect((await self('wrong-key', body)).status).to.equal(401);
      expect((await self(null, body)).status).to.equal(401);
      expect((await self(second, body)).status).to.equal(200);
    });

    it('refuses another id (400), another workspace (403) and an incomplete body (400)', async () => {
      const key = (await server.request('POST', `${D}/keyed/apikey`)).body.apiKey as string;
      expect((await self(key, deviceBody('whole', w))).status).to.equal(400);
      expect((await self(key, deviceBody('keyed', other))).status).to.equal(403);
      const { name: _n, ...partial } = deviceBody('keyed', w);
      expect((await self(key, partial)).status).to.equal(400);
    });

    it('never answers the key or its hash', async () => {
      const everything = JSON.stringify([
        (await server.request('GET', `${D}?limit=100`)).body,
        (await server.request('GET', `${D}/keyed`)).body,
        (await server.request('POST', `${D}/export`, { body: { excludeFields: [] } })).body,
      ]);
      const { api_key_hash: hash } = await server.database.db.selectFrom('devices').select('api_key_hash').where('id', '=', 'keyed').executeTakeFirstOrThrow();
      expect(hash).to.match(/^[0-9a-f]{64}$/);
      expect(everything).not.to.include(hash!);
      expect((await server.request('GET', `${D}?fields=apiKeyHash`)).status).to.equal(400);
      expect((await server.request('GET', `${D}?fields=api_key_hash`)).status).to.equal(400);
    });
  });

  describe('export', () => {
    it('answers the devices matching req without the excluded fields', async () => {
      const res = await server.request('POST', `${D}/export`, {
        body: { excludeFields: ['decoder', 'extra'], req: { filter: ['id||$in||perm,whole'], sort: ['id,DESC'], limit: 10 } },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ count: 2, total: 2, page: 1, pageCount: 1 });
      expect(ids(res)).to.deep.equal(['whole', 'perm']);
      for (const record of res.body.data) {
        expect(record).not.to.have.any.keys('decoder', 'extra');
        expect(record).to.include.keys('id', 'name', 'stateRef', 'workspace');
      }
    });

    it('takes s as an object, and the first page of everything without req', async () => {
      const search = await server.request('POST', `${D}/export`, { body: { excludeFields: ['id'], req: { s: { id: 'perm' } } } });
      expect(search.body.data).to.have.length(1);
      expect(search.body.data[0]).not.to.have.property('id');
      expect((await server.request('POST', `${D}/export`, { body: { excludeFields: [] } })).body.total).to.be.greaterThan(5);
    });

    it('refuses unknown excluded fields and a bad query', async () => {
      expect((await server.request('POST', `${D}/export`, { body: { excludeFields: ['apiKeyHash'] } })).status).to.equal(400);
      expect((await server.request('POST', `${D}/export`, { body: { excludeFields: [], req: { filter: ['bogus||$eq||1'] } } })).status).to.equal(400);
      expect((await server.request('POST', `${D}/export`, { body: { excludeFields: [], req: { limit: 101 } } })).status).to.equal(400);
      expect((await server.request('POST', `${D}/export`, { body: { req: {} } })).status).to.equal(400);
    });
  });

  describe('moving a device to another workspace', () => {
    const target = randomUUID();

    it('is for LV1 only', async () => {
      await server.request('POST', D, { body: deviceBody('mover', w) });
      expect((await server.request('POST', `${D}/mover/workspace`, { body: { workspace: { id: target } } })).status).to.equal(403);
      expect((await server.request('POST', `${D}/mover/workspace`, { body: { workspace: { id: 'nope' } }, token: lv1 })).status).to.equal(400);
    });

    it('moves the device with its key and answers the new workspace id', async () => {
      const key = (await server.request('POST', `${D}/mover/apikey`)).body.apiKey as string;
      const res = await server.request('POST', `${D}/mover/workspace`, { body: { workspace: { id: target } }, token: lv1 });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ id: target });
      expect((await server.request('GET', `${D}/mover`)).status).to.equal(404);
      const moved = await server.request('GET', `${D}/mover`, { token: lv1, headers: { 'x-workspace': target } });
      expect(moved.body).to.deep.equal(deviceBody('mover', target));
      const events = (await recordEvents(server, 'device')).filter((e) => e.stream_id.endsWith('-mover'));
      expect(events.map((e) => [e.stream_id, e.event_type])).to.deep.equal([
        [`device-${w}-mover`, 'DeviceCreated'],
        [`device-${target}-mover`, 'DeviceCreated'],
        [`device-${w}-mover`, 'DeviceDeleted'],
      ]);
      const selfUpdate = await server.request('PUT', `${D}/self`, { token: null, headers: { 'x-api-key': key }, body: deviceBody('mover', target, { name: 'moved' }) });
      expect(selfUpdate.status).to.equal(200);
    });

    it('refuses a target workspace that has the id already (409) and leaves the device where it was', async () => {
      await server.request('POST', D, { body: deviceBody('mover', w) });
      const res = await server.request('POST', `${D}/mover/workspace`, { body: { workspace: { id: target } }, token: lv1 });
      expect(res.status).to.equal(409);
      expect((await server.request('GET', `${D}/mover`)).status).to.equal(200);
      expect((await server.request('POST', `${D}/mover/workspace`, { body: { workspace: { id: w } }, token: lv1 })).body).to.deep.equal({ id: w });
    });
  });
});
