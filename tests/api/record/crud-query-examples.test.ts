import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { deviceBody, ids, withQuery } from './record-api.js';

/**
 * The 57 example requests of crud-query-language.md §8 over HTTP, adjusted to this project's
 * decisions (every list answers the envelope, default limit 20, unknown names are 400, PUT does
 * not upsert, DELETE answers the record). The example's `devices` map onto our records:
 * status → type, port → timeout, secret → apiKeyHash; ownerId/owner → a zone's parentZoneId/parentZone.
 */
describe('query language examples (crud-query-language.md §8)', function () {
  this.timeout(60_000);
  let server: TestServer;
  const D = '/device/v1/devices';
  const Z = '/device/v1/zones';
  const get = (path: string, ...params: [string, string][]) => server.request('GET', withQuery(path, ...params));
  const expect400 = async (path: string, message: string | RegExp, ...params: [string, string][]) => {
    const res = await get(path, ...params);
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.statusCode).to.equal(400);
    if (typeof message === 'string') expect(res.body.message).to.equal(message);
    else expect(res.body.message).to.match(message);
  };

  // 23 devices: seven with meaning, sixteen spares.
  const named: [string, string, string, number][] = [
    ['d01', 'router-1', 'active', 22],
    ['d02', 'Router-2', 'active', 1500],
    ['d03', 'switch-3', 'lab', 0],
    ['d04', 'sensor-4', 'retired', 15],
    ['d05', 'sensor-5', 'lost', 8080],
    ['d06', 'a', 'lab', 0],
    ['d07', 'b', 'active', 1000],
  ];
  const spares = Array.from({ length: 16 }, (_, i) => `d${String(i + 8).padStart(2, '0')}`);
  const allIds = [...named.map(([id]) => id), ...spares];

  before(async () => {
    server = await startTestServer();
    const w = server.workspace;
    const bulk = [
      ...named.map(([id, name, type, timeout]) => deviceBody(id, w, { name, type, timeout })),
      ...spares.map((id, i) => deviceBody(id, w, { name: 'spare', type: 'spare', timeout: 100 + i })),
    ];
    expect((await server.request('POST', `${D}/bulk`, { body: { bulk } })).status).to.equal(201);
    const zones = [
      { id: 'z-hq', name: 'HQ', parentZoneId: null },
      { id: 'z-north', name: 'North Wing', parentZoneId: 'z-hq' },
      { id: 'z-south', name: 'south wing', parentZoneId: 'z-hq' },
      { id: 'z-n1', name: 'Room N1', parentZoneId: 'z-north' },
      { id: 'z-s1', name: 'Room S1', parentZoneId: 'z-south' },
      { id: 'z-annex', name: 'Annex', parentZoneId: null },
    ].map((z) => ({ ...z, workspace: w }));
    expect((await server.request('POST', `${Z}/bulk`, { body: { bulk: zones } })).status).to.equal(201);
    // A key makes the secret column hold a value that must never be answered.
    expect((await server.request('POST', `${D}/d01/apikey`)).status).to.equal(201);
  });
  after(() => server.stop());

  describe('selecting', () => {
    it('#1 GET /devices: the envelope of the first 20, every allowed field, no secret', async () => {
      const res = await get(D);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ count: 20, total: 23, page: 1, pageCount: 2 });
      expect(ids(res)).to.deep.equal(allIds.slice(0, 20));
      expect(res.body.data[0]).to.deep.equal(deviceBody('d01', server.workspace, { name: 'router-1', type: 'active', timeout: 22 }));
      expect(JSON.stringify(res.body)).not.to.match(/apiKey/i);
    });

    it('#2 fields=name: the key fields and name', async () => {
      const res = await get(D, ['fields', 'name'], ['limit', '1']);
      expect(res.body.data).to.deep.equal([{ id: 'd01', name: 'router-1', workspace: server.workspace }]);
    });

    it('#3 select=name,bogus,secret: unknown and excluded names are 400 (select is the alias of fields)', async () => {
      await expect400(D, "Unknown field 'bogus' in select", ['select', 'name,bogus,apiKeyHash']);
      await expect400(D, "Field 'apiKeyHash' cannot be used in select", ['select', 'name,apiKeyHash']);
      expect((await get(D, ['select', 'name'], ['limit', '1'])).body.data).to.deep.equal([{ id: 'd01', name: 'router-1', workspace: server.workspace }]);
    });
  });

  describe('filter', () => {
    const filtered = async (...conditions: string[]) => ids(await get(D, ...conditions.map((c): [string, string] => ['filter', c]), ['limit', '100']));

    it('#4 name||$eq||router-1', async () => {
      expect(await filtered('name||$eq||router-1')).to.deep.equal(['d01']);
    });

    it('#5 name||eq||router-1 (short alias)', async () => {
      expect(await filtered('name||eq||router-1')).to.deep.equal(['d01']);
    });

    it('#6 port||$gte||1000 and port||$lt||2000', async () => {
      expect(await filtered('timeout||$gte||1000', 'timeout||$lt||2000')).to.deep.equal(['d02', 'd07']);
    });

    it('#7 id||$in||1,2,3', async () => {
      expect(await filtered('id||$in||d01,d02,d03')).to.deep.equal(['d01', 'd02', 'd03']);
    });

    it('#8 status||$notin||retired,lost', async () => {
      expect(await filtered('type||$notin||retired,lost')).to.deep.equal(allIds.filter((id) => id !== 'd04' && id !== 'd05'));
    });

    it('#9 port||$between||10,20', async () => {
      expect(await filtered('timeout||$between||10,25')).to.deep.equal(['d01', 'd04']);
    });

    it('#10 ownerId||$isnull and ownerId||notnull', async () => {
      expect(ids(await get(Z, ['filter', 'parentZoneId||$isnull']))).to.deep.equal(['z-annex', 'z-hq']);
      expect(ids(await get(Z, ['filter', 'parentZoneId||notnull']))).to.deep.equal(['z-n1', 'z-north', 'z-s1', 'z-south']);
    });

    it('#11 name||$contL||ROUTER (case-insensitive contains)', async () => {
      expect(await filtered('name||$contL||ROUTER')).to.deep.equal(['d01', 'd02']);
    });

    it('#12 name||$eqL: lower(column) = lower(value), so Router-1 matches too', async () => {
      expect(await filtered('name||$eqL||router-1')).to.deep.equal(['d01']);
      expect(await filtered('name||$eqL||Router-1')).to.deep.equal(['d01']);
    });

    it('#13 name||$starts||Ro (case-sensitive)', async () => {
      expect(await filtered('name||$starts||Ro')).to.deep.equal(['d02']);
    });
  });

  describe('or', () => {
    const query = async (...params: [string, string][]) => ids(await get(D, ...params, ['limit', '100']));

    it('#14 a single or acts as a filter', async () => {
      expect(await query(['or', 'name||$eq||a'])).to.deep.equal(['d06']);
    });

    it('#15 several ors alone are OR-ed', async () => {
      expect(await query(['or', 'name||$eq||a'], ['or', 'name||$eq||b'])).to.deep.equal(['d06', 'd07']);
    });

    it('#16 one filter and one or: filter OR or', async () => {
      expect(await query(['filter', 'type||$eq||active'], ['or', 'type||$eq||lab'])).to.deep.equal(['d01', 'd02', 'd03', 'd06', 'd07']);
    });

    it('#17 (filters AND-ed) OR (ors AND-ed)', async () => {
      const res = await query(['filter', 'type||$eq||active'], ['filter', 'timeout||$gt||0'], ['or', 'type||$eq||lab'], ['or', 'timeout||$eq||0']);
      expect(res).to.deep.equal(['d01', 'd02', 'd03', 'd06', 'd07']);
    });

    it('#18 next to a filter, several ors are AND-ed with each other', async () => {
      expect(await query(['filter', 'type||$eq||active'], ['or', 'name||$eq||a'], ['or', 'name||$eq||b'])).to.deep.equal(['d01', 'd02', 'd07']);
    });
  });

  describe('s', () => {
    const search = async (path: string, value: unknown) => ids(await get(path, ['s', JSON.stringify(value)], ['limit', '100']));

    it('#19 {"name":"router-1"}', async () => {
      expect(await search(D, { name: 'router-1' })).to.deep.equal(['d01']);
    });

    it('#20 {"port":{"$gte":10,"$lte":20}}', async () => {
      expect(await search(D, { timeout: { $gte: 10, $lte: 25 } })).to.deep.equal(['d01', 'd04']);
    });

    it('#21 {"$or":[…],"ownerId":{"$notnull":true}}: the $or AND the other keys', async () => {
      expect(await search(Z, { $or: [{ name: 'HQ' }, { name: { $starts: 'Room' } }], parentZoneId: { $notnull: true } })).to.deep.equal(['z-n1', 'z-s1']);
    });

    it('#22 a field-level $or', async () => {
      expect(await search(Z, { parentZoneId: { $or: { $isnull: true, $eq: 'z-north' } } })).to.deep.equal(['z-annex', 'z-hq', 'z-n1']);
    });

    it('#23 $and with a nested $or', async () => {
      expect(await search(D, { $and: [{ type: 'active' }, { $or: [{ name: { $starts: 'r' } }, { name: { $starts: 'R' } }] }] })).to.deep.equal(['d01', 'd02']);
    });

    it('#24 {"ownerId":null} is IS NULL', async () => {
      expect(await search(Z, { parentZoneId: null })).to.deep.equal(['z-annex', 'z-hq']);
    });

    it('#25 s wins: a broken filter next to it is neither applied nor validated', async () => {
      const res = await get(D, ['s', JSON.stringify({ type: 'lab' })], ['filter', 'name||$bogus||x']);
      expect(res.status).to.equal(200);
      expect(ids(res)).to.deep.equal(['d03', 'd06']);
    });
  });

  describe('sort and join', () => {
    it('#26 sort=name,ASC&sort=id,DESC', async () => {
      const res = await get(D, ['filter', 'type||$in||spare,lab'], ['sort', 'name,ASC'], ['sort', 'id,DESC'], ['limit', '100']);
      expect(ids(res)).to.deep.equal(['d06', ...[...spares].reverse(), 'd03']);
    });

    it('#27 join=owner||email: the relation’s key fields and the fields asked for, or null', async () => {
      const res = await get(Z, ['join', 'parentZone||name'], ['filter', 'id||$in||z-hq,z-n1']);
      expect(res.body.data).to.deep.equal([
        { id: 'z-hq', name: 'HQ', parentZoneId: null, workspace: server.workspace, parentZone: null },
        { id: 'z-n1', name: 'Room N1', parentZoneId: 'z-north', workspace: server.workspace, parentZone: { id: 'z-north', name: 'North Wing', workspace: server.workspace } },
      ]);
    });

    it('#28 filter and sort on the joined relation', async () => {
      const res = await get(Z, ['join', 'parentZone'], ['filter', 'parentZone.name||$endsL||WING'], ['sort', 'parentZone.name,DESC']);
      expect(ids(res)).to.deep.equal(['z-s1', 'z-n1']);
      expect(res.body.data[1].parentZone).to.deep.equal({ id: 'z-north', name: 'North Wing', parentZoneId: 'z-hq', workspace: server.workspace });
    });

    it('#29 join=nope: an undeclared relation is 400', async () => {
      await expect400(Z, "Unknown relation 'nope' in join", ['join', 'nope']);
      await expect400(D, "Unknown relation 'parentZone' in join", ['join', 'parentZone']);
    });

    it('join=children: the direct children', async () => {
      const res = await get(Z, ['join', 'children||name'], ['filter', 'id||$eq||z-hq']);
      expect(res.body.data[0].children).to.deep.equal([
        { id: 'z-north', name: 'North Wing', workspace: server.workspace },
        { id: 'z-south', name: 'south wing', workspace: server.workspace },
      ]);
    });
  });

  describe('paging (always the envelope; default limit 20, at most 100)', () => {
    it('#30 limit=10', async () => {
      const res = await get(D, ['limit', '10']);
      expect(res.body).to.include({ count: 10, total: 23, page: 1, pageCount: 3 });
      expect(ids(res)).to.deep.equal(allIds.slice(0, 10));
    });

    it('#31 limit=10&page=3', async () => {
      const res = await get(D, ['limit', '10'], ['page', '3']);
      expect(res.body).to.include({ count: 3, total: 23, page: 3, pageCount: 3 });
      expect(ids(res)).to.deep.equal(allIds.slice(20));
    });

    it('#32 limit=10&offset=0', async () => {
      expect((await get(D, ['limit', '10'], ['offset', '0'])).body).to.include({ count: 10, page: 1 });
    });

    it('#33 limit=10&offset=7: page derived from the offset', async () => {
      const res = await get(D, ['limit', '10'], ['offset', '7']);
      expect(res.body).to.include({ count: 10, page: 1, pageCount: 3 });
      expect(ids(res)).to.deep.equal(allIds.slice(7, 17));
    });

    it('#34 limit=10&page=2&offset=7: page wins', async () => {
      const res = await get(D, ['limit', '10'], ['page', '2'], ['offset', '7']);
      expect(res.body).to.include({ page: 2 });
      expect(ids(res)).to.deep.equal(allIds.slice(10, 20));
    });

    it('#35 page=2 with the default limit of 20', async () => {
      const res = await get(D, ['page', '2']);
      expect(res.body).to.include({ count: 3, total: 23, page: 2, pageCount: 2 });
    });

    it('#36 offset=5', async () => {
      const res = await get(D, ['offset', '5']);
      expect(res.body).to.include({ count: 18, total: 23, page: 1 });
      expect(ids(res)[0]).to.equal('d06');
    });

    it('#37 limit=500: over the maximum of 100 is 400', async () => {
      const res = await get(D, ['limit', '500'], ['page', '1']);
      expect(res.status).to.equal(400);
      expect((await get(D, ['limit', '100'])).body).to.include({ count: 23, pageCount: 1 });
    });

    it('#38 an empty list is the envelope too', async () => {
      const elsewhere = server.token({ level: 'LV5', workspace: '00000000-0000-4000-8000-000000000000' });
      const res = await server.request('GET', D, { token: elsewhere });
      expect(res.body).to.deep.equal({ data: [], count: 0, total: 0, page: 1, pageCount: 1 });
    });
  });

  describe('read one', () => {
    it('#39 GET /zones/{id}?fields=name&join=parentZone; a missing one is 404', async () => {
      const res = await get(`${Z}/z-n1`, ['fields', 'name'], ['join', 'parentZone']);
      expect(res.body).to.deep.equal({
        id: 'z-n1',
        name: 'Room N1',
        workspace: server.workspace,
        parentZone: { id: 'z-north', name: 'North Wing', parentZoneId: 'z-hq', workspace: server.workspace },
      });
      const missing = await get(`${D}/d99`);
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ statusCode: 404, message: 'Device not found' });
    });

    it('read one takes only fields, join and cache', async () => {
      await expect400(`${D}/d01`, /filter/, ['filter', 'name||$eq||x']);
    });
  });

  describe('cache', () => {
    it('#40 cache=0 answers the same data; a non-number is 400', async () => {
      const res = await get(D, ['cache', '0']);
      expect(res.body).to.deep.equal((await get(D)).body);
      await expect400(D, /cache/, ['cache', 'abc']);
      await expect400(D, /cache/, ['cache', '2']);
    });
  });

  describe('syntax errors (400, the original wording)', () => {
    it('#41 unknown operator', async () => {
      await expect400(D, /^Invalid comparison operator\. eq,ne,.*,\$notinL expected$/, ['filter', 'name||$like||x']);
    });

    it('#42 no short form for L operators', async () => {
      await expect400(D, /^Invalid comparison operator/, ['filter', 'name||eqL||x']);
    });

    it('#43 missing, empty or null value', async () => {
      for (const c of ['name||$eq', 'name||$eq||', 'name||$eq||null']) await expect400(D, 'Invalid filter value', ['filter', c]);
    });

    it('#44 $between with one value', async () => {
      await expect400(D, "Invalid column 'timeout' value", ['filter', 'timeout||$between||1']);
    });

    it('#45 s not JSON, or empty', async () => {
      await expect400(D, 'Invalid search param. JSON expected', ['s', '{bad']);
      await expect400(D, /'s'/, ['s', '']);
    });

    it('#46 sort without an upper-case order', async () => {
      await expect400(D, 'Invalid sort order. ASC,DESC expected', ['sort', 'name']);
      await expect400(D, 'Invalid sort order. ASC,DESC expected', ['sort', 'name,asc']);
    });

    it('#47 a limit that is not an integer', async () => {
      await expect400(D, /limit/, ['limit', 'ten']);
      await expect400(D, 'Invalid limit. Number expected', ['limit', '1e2']);
    });

    it('#48 a path id that cannot be an id (string ids here; numeric kinds answer "Invalid param id. Number expected")', async () => {
      const res = await server.request('GET', `${D}/${'x'.repeat(129)}`);
      expect(res.status).to.equal(400);
      expect((await server.request('GET', `${D}/${encodeURIComponent('a b')}`)).status).to.equal(400);
    });
  });

  describe('names the original sent to the database (400 here, nothing executed)', () => {
    it('#49 an unknown field', async () => {
      await expect400(D, "Unknown field 'bogus' in filter", ['filter', 'bogus||$eq||1']);
    });

    it('#50 the excluded secret field', async () => {
      await expect400(D, "Field 'apiKeyHash' cannot be used in filter", ['filter', 'apiKeyHash||$cont||a']);
      await expect400(D, "Field 'apiKeyHash' cannot be used in sort", ['sort', 'apiKeyHash,ASC']);
      await expect400(D, "Field 'apiKeyHash' cannot be used in s", ['s', '{"apiKeyHash":{"$notnull":true}}']);
    });

    it('#51 a dotted field carrying SQL', async () => {
      await expect400(D, /Unknown field 'a\.b\) OR \(1=1' in filter/, ['filter', 'a.b) OR (1=1||$isnull']);
      await expect400(D, /Unknown field/, ['or', '"name"||$isnull']);
      await expect400(D, /Unknown field/, ['s', JSON.stringify({ "name' or '1'='1": 1 })]);
    });

    it('#52 a sort field carrying SQL; the table is still there', async () => {
      await expect400(D, "Unknown field 'name;DROP TABLE x' in sort", ['sort', 'name;DROP TABLE x,ASC']);
      await expect400(D, /Unknown field/, ['sort', "name' --,ASC"]);
      expect((await get(D)).body.total).to.equal(23);
    });
  });

  describe('writes', () => {
    it('#53 POST /devices: 201 with the created record', async () => {
      const body = deviceBody('r1', server.workspace, { name: 'r1', timeout: 22 });
      const res = await server.request('POST', D, { body });
      expect(res.status).to.equal(201);
      expect(res.body).to.deep.equal(body);
    });

    it('#54 POST /devices/bulk: 201 with the records; an empty or missing bulk is 400', async () => {
      const res = await server.request('POST', `${D}/bulk`, { body: { bulk: [deviceBody('ba', server.workspace), deviceBody('bb', server.workspace)] } });
      expect(res.status).to.equal(201);
      expect(res.body.map((r: { id: string }) => r.id)).to.deep.equal(['ba', 'bb']);
      expect((await server.request('POST', `${D}/bulk`, { body: { bulk: [] } })).status).to.equal(400);
      expect((await server.request('POST', `${D}/bulk`, { body: {} })).status).to.equal(400);
    });

    it('#55 PATCH /devices/{id}: the other fields unchanged; a missing one is 404', async () => {
      const res = await server.request('PATCH', `${D}/d05`, { body: { name: 'n' } });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(deviceBody('d05', server.workspace, { name: 'n', type: 'lost', timeout: 8080 }));
      expect((await server.request('PATCH', `${D}/d99`, { body: { name: 'n' } })).status).to.equal(404);
    });

    it('#56 PUT /devices/{id}: replaces an existing record; a missing one is 404 (no upsert)', async () => {
      const missing = await server.request('PUT', `${D}/d999`, { body: deviceBody('d999', server.workspace) });
      expect(missing.status).to.equal(404);
      expect((await get(`${D}/d999`)).status).to.equal(404);
      const replaced = deviceBody('d04', server.workspace, { name: 'replaced', extra: {}, stateRef: [] });
      const res = await server.request('PUT', `${D}/d04`, { body: replaced });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(replaced);
      expect((await get(`${D}/d04`)).body).to.deep.equal(replaced);
    });

    it('#57 DELETE /devices/{id}: 200 with the deleted record; again 404', async () => {
      const before = (await get(`${D}/d06`)).body;
      const res = await server.request('DELETE', `${D}/d06`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(before);
      expect((await server.request('DELETE', `${D}/d06`)).status).to.equal(404);
    });
  });
});
