import { expect } from 'chai';
import sinon from 'sinon';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { deviceBody, withQuery } from './record-api.js';

const D = '/device/v1/devices';

/** Issue 6's list of bad input: each answers 4xx in the contract's shape, before any SQL runs. */
describe('bad input to the device records', function () {
  this.timeout(60_000);
  let server: TestServer;
  const devicesStored = async () => (await server.database.db.selectFrom('devices').select('id').execute()).map((d) => d.id);

  /** Runs the requests and checks that none of them reached the database. */
  const withoutQueries = async (run: () => Promise<void>) => {
    const queries = sinon.spy(server.services.db.getExecutor(), 'executeQuery');
    try {
      await run();
      expect(queries.callCount, 'queries run for refused input').to.equal(0);
    } finally {
      queries.restore();
    }
  };

  const refused = async (status: number, path: string, ...params: [string, string][]) => {
    const res = await server.request('GET', withQuery(path, ...params));
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body).to.have.property('statusCode', status);
    expect(res.body.message).to.be.a('string');
    return res;
  };

  before(async () => {
    // Read models written in the append: with PROJECTIONS=async the projection runner's own queries
    // would be counted with the request's.
    server = await startTestServer({ PROJECTIONS: 'inline' });
    await server.request('POST', D, { body: deviceBody('d1', server.workspace) });
  });
  after(() => server.stop());

  it('an unknown field in fields, filter, or, sort, s or join', async () => {
    await withoutQueries(async () => {
      await refused(400, D, ['fields', 'name,bogus']);
      await refused(400, D, ['filter', 'bogus||$eq||1']);
      await refused(400, D, ['or', 'bogus||$eq||1']);
      await refused(400, D, ['sort', 'bogus,ASC']);
      await refused(400, D, ['s', '{"bogus":1}']);
      await refused(400, '/device/v1/zones', ['join', 'parentZone||bogus']);
      await refused(400, `${D}/d1`, ['fields', 'bogus']);
    });
  });

  it('an excluded field in filter or sort', async () => {
    await withoutQueries(async () => {
      await refused(400, D, ['filter', 'apiKeyHash||$notnull']);
      await refused(400, D, ['sort', 'apiKeyHash,DESC']);
      await refused(400, D, ['fields', 'apiKeyHash']);
    });
  });

  it('field names carrying SQL', async () => {
    await withoutQueries(async () => {
      for (const name of ['name;drop table devices', 'a.b', 'a.b) OR (1=1', '"name"', "name'", 'name--', 'short_name', 'devices.name']) {
        await refused(400, D, ['filter', `${name}||$eq||x`]);
        await refused(400, D, ['sort', `${name},ASC`]);
        await refused(400, D, ['s', JSON.stringify({ [name]: 'x' })]);
      }
    });
  });

  it('malformed s', async () => {
    await withoutQueries(async () => {
      for (const s of ['{bad', 'null', '[1]', '"x"', '{"name":[1,2]}', '{"$or":{}}']) await refused(400, D, ['s', s]);
    });
  });

  it('an unknown operator', async () => {
    await withoutQueries(async () => {
      await refused(400, D, ['filter', 'name||$like||x']);
      await refused(400, D, ['s', '{"name":{"$regex":"x"}}']);
    });
  });

  it('limit over 100, negative offset, page 0', async () => {
    await withoutQueries(async () => {
      await refused(400, D, ['limit', '101']);
      await refused(400, D, ['offset', '-1']);
      await refused(400, D, ['page', '0']);
    });
  });

  it('60 filter conditions', async () => {
    await withoutQueries(async () => {
      const sixty = Array.from({ length: 60 }, (_, i): [string, string] => ['filter', `name||$ne||x${i}`]);
      await refused(400, D, ...sixty);
      const search = JSON.stringify({ $and: Array.from({ length: 60 }, (_, i) => ({ name: { $ne: `x${i}` } })) });
      await refused(400, D, ['s', search]);
    });
  });

  it('a bulk with one invalid record: nothing stored', async () => {
    const bulk = [deviceBody('b1', server.workspace), deviceBody('b2', server.workspace, { visible: 'maybe' })];
    await withoutQueries(async () => {
      const res = await server.request('POST', `${D}/bulk`, { body: { bulk } });
      expect(res.status).to.equal(400);
      expect(res.body.statusCode).to.equal(400);
    });
    expect(await devicesStored()).to.deep.equal(['d1']);
  });

  it('a missing required device field', async () => {
    const { decoder: _d, ...body } = deviceBody('d2', server.workspace);
    await withoutQueries(async () => {
      const res = await server.request('POST', D, { body });
      expect(res.status).to.equal(400);
      expect(res.body.message).to.include('decoder');
    });
    expect(await devicesStored()).to.deep.equal(['d1']);
  });

  it('a wrong API key', async () => {
    const res = await server.request('PUT', `${D}/self`, { token: null, headers: { 'x-api-key': 'not-a-key' }, body: deviceBody('d1', server.workspace) });
    expect(res.status).to.equal(401);
    expect(res.body.statusCode).to.equal(401);
  });
});
