import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { ids, recordEvents } from './record-api.js';

const Z = '/device/v1/zones';

describe('zone records over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  let w: string;
  const other = randomUUID();
  const zone = (id: string, parentZoneId: string | null = null, workspace?: string) => ({ id, name: `Zone ${id}`, parentZoneId, workspace: workspace ?? w });
  const create = (id: string, parentZoneId: string | null = null) => server.request('POST', Z, { body: zone(id, parentZoneId) });

  before(async () => {
    server = await startTestServer();
    w = server.workspace;
    for (const [id, parent] of [['hq', null], ['north', 'hq'], ['n1', 'north'], ['n2', 'north'], ['annex', null]] as const) {
      expect((await create(id, parent)).status, id).to.equal(201);
    }
  });
  after(() => server.stop());

  it('answers id, name, parentZoneId and workspace; parentZoneId left out is null', async () => {
    const res = await server.request('POST', Z, { body: { id: 'root-2', name: 'Second root', workspace: w } });
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.equal({ id: 'root-2', name: 'Second root', parentZoneId: null, workspace: w });
  });

  describe('parents', () => {
    it('must exist in the same workspace', async () => {
      const missing = await create('lost', 'ghost');
      expect(missing.status).to.equal(400);
      expect(missing.body.message).to.match(/parent zone 'ghost' .*does not exist in this workspace/);
      const otherAdmin = server.token({ level: 'LV2', workspace: other });
      await server.request('POST', Z, { body: zone('only-there', null, other), token: otherAdmin });
      expect((await create('cross', 'only-there')).status).to.equal(400);
      expect((await server.request('PATCH', `${Z}/annex`, { body: { parentZoneId: 'only-there' } })).status).to.equal(400);
    });

    it('refuse cycles: the zone itself or one of its descendants', async () => {
      expect((await server.request('PATCH', `${Z}/hq`, { body: { parentZoneId: 'hq' } })).status).to.equal(400);
      expect((await server.request('PATCH', `${Z}/hq`, { body: { parentZoneId: 'n1' } })).status).to.equal(400);
      expect((await server.request('PUT', `${Z}/north`, { body: zone('north', 'n2') })).status).to.equal(400);
      expect((await server.request('GET', `${Z}/hq`)).body.parentZoneId).to.equal(null);
    });

    it('can move a zone under another branch, and PUT without parentZoneId makes it a root', async () => {
      const moved = await server.request('PATCH', `${Z}/n2`, { body: { parentZoneId: 'annex' } });
      expect(moved.status).to.equal(200);
      expect(moved.body.parentZoneId).to.equal('annex');
      const root = await server.request('PUT', `${Z}/n2`, { body: { id: 'n2', name: 'Now a root', workspace: w } });
      expect(root.body).to.deep.equal({ id: 'n2', name: 'Now a root', parentZoneId: null, workspace: w });
    });
  });

  describe('deleting', () => {
    it('refuses a zone that still has children (409) and deletes a leaf', async () => {
      const res = await server.request('DELETE', `${Z}/north`);
      expect(res.status).to.equal(409);
      expect(res.body).to.deep.equal({ statusCode: 409, message: "Zone 'north' still has child zones" });
      expect((await server.request('DELETE', `${Z}/n1`)).body).to.deep.equal(zone('n1', 'north'));
      expect((await server.request('DELETE', `${Z}/north`)).status).to.equal(200);
      const events = (await recordEvents(server, 'zone')).filter((e) => e.event_type === 'ZoneDeleted');
      expect(events.map((e) => e.stream_id)).to.deep.equal([`zone-${w}-n1`, `zone-${w}-north`]);
    });
  });

  describe('bulk', () => {
    it('takes parents from the same bulk in any order and answers in the order given', async () => {
      const bulk = [zone('b-leaf', 'b-mid'), zone('b-mid', 'b-top'), zone('b-top', 'hq')];
      const res = await server.request('POST', `${Z}/bulk`, { body: { bulk } });
      expect(res.status).to.equal(201);
      expect(res.body).to.deep.equal(bulk);
      const created = (await recordEvents(server, 'zone')).filter((e) => e.stream_id.includes('-b-')).map((e) => e.data.id);
      expect(created).to.deep.equal(['b-top', 'b-mid', 'b-leaf']);
    });

    it('stores nothing when a parent is missing or the bulk closes a cycle', async () => {
      const before = (await server.request('GET', Z)).body.total;
      expect((await server.request('POST', `${Z}/bulk`, { body: { bulk: [zone('c-1'), zone('c-2', 'ghost')] } })).status).to.equal(400);
      expect((await server.request('POST', `${Z}/bulk`, { body: { bulk: [zone('c-1', 'c-2'), zone('c-2', 'c-1')] } })).status).to.equal(400);
      expect((await server.request('GET', Z)).body.total).to.equal(before);
    });
  });

  describe('reading', () => {
    it('joins parentZone and children on lists and reads', async () => {
      const list = await server.request('GET', `${Z}?join=parentZone%7C%7Cname&join=children%7C%7Cname&filter=${encodeURIComponent('id||$in||b-mid,annex')}`);
      expect(list.body.data).to.deep.equal([
        { ...zone('annex'), parentZone: null, children: [] },
        { ...zone('b-mid', 'b-top'), parentZone: { id: 'b-top', name: 'Zone b-top', workspace: w }, children: [{ id: 'b-leaf', name: 'Zone b-leaf', workspace: w }] },
      ]);
      const read = await server.request('GET', `${Z}/hq?join=children&fields=name`);
      expect(read.body).to.deep.equal({ id: 'hq', name: 'Zone hq', workspace: w, children: [zone('b-top', 'hq')] });
    });

    it('lists only the caller’s workspace', async () => {
      expect(ids(await server.request('GET', `${Z}?limit=100`))).not.to.include('only-there');
    });
  });
});
