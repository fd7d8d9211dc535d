import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { withQuery } from '../record/record-api.js';
import { catalogClient, ids } from './catalog-api.js';

describe('the query language on catalog records', function () {
  this.timeout(60_000);
  let server: TestServer;
  let api: ReturnType<typeof catalogClient>;
  const apps: Record<string, number> = {};
  const publishers: Record<string, number> = {};
  const get = (path: string, ...params: [string, string][]) => api.call('GET', withQuery(path, ...params));

  before(async () => {
    server = await startTestServer();
    api = catalogClient(server);
    publishers.zed = (await api.publisher('zed')).id;
    publishers.amy = (await api.publisher('amy')).id;
    const signage = await api.project('signage', '1', publishers.zed!, { description: 'Door signs' });
    const desk = await api.project('desk', '2', publishers.amy!);
    apps.signage = (await api.application('signage', '1', signage.id, { category: 'signage', semVer: '1.0.0', publisherId: publishers.zed })).id;
    apps.desk = (await api.application('desk', '2', desk.id, { category: 'booking', publisherId: publishers.amy })).id;
    apps.deskBeta = (await api.application('desk-beta', '2', desk.id, { category: 'booking' })).id;
    await api.moveTo(apps.desk!, 'RELEASE');
  });
  after(() => server.stop());

  it('filters by text, number, status and time, and with or', async () => {
    expect(ids(await get('/applications', ['filter', 'category||$eq||booking']))).to.deep.equal([apps.desk, apps.deskBeta]);
    expect(ids(await get('/applications', ['filter', 'name||$startsL||DESK'], ['filter', 'status||$ne||RELEASE']))).to.deep.equal([apps.deskBeta]);
    expect(ids(await get('/applications', ['filter', `id||$in||${apps.signage},${apps.deskBeta}`]))).to.deep.equal([apps.signage, apps.deskBeta]);
    expect(ids(await get('/applications', ['filter', 'publisherId||$isnull']))).to.deep.equal([apps.deskBeta]);
    expect(ids(await get('/applications', ['filter', 'createdAt||$lt||2000-01-01']))).to.deep.equal([]);
    expect(ids(await get('/applications', ['or', 'status||$eq||RELEASE'], ['or', 'semVer||$notnull']))).to.deep.equal([apps.signage, apps.desk]);
    expect(ids(await get('/applications', ['s', JSON.stringify({ $or: [{ category: 'signage' }, { status: 'RELEASE' }] })]))).to.deep.equal([apps.signage, apps.desk]);
  });

  it('filters and sorts through relations, and joins them', async () => {
    expect(ids(await get('/applications', ['filter', 'project.description||$contL||door']))).to.deep.equal([apps.signage]);
    expect(ids(await get('/applications', ['filter', 'publisher.email||$notnull'], ['sort', 'publisher.email,ASC']))).to.deep.equal([apps.desk, apps.signage]);
    const joined = await get(`/applications/${apps.signage}`, ['join', 'project||appName'], ['join', 'publisher'], ['fields', 'name']);
    expect(joined.body).to.deep.equal({
      id: apps.signage,
      name: 'signage',
      project: { id: joined.body.project.id, appName: 'signage' },
      publisher: { id: publishers.zed, email: 'zed@example.com', name: 'Studio zed', verified: false, createdAt: joined.body.publisher.createdAt, updatedAt: joined.body.publisher.updatedAt },
    });
    expect((await get(`/applications/${apps.deskBeta}`, ['join', 'publisher'])).body.publisher).to.equal(null);
    const projects = await get('/projects', ['join', 'publisher||email'], ['sort', 'appName,DESC']);
    expect(projects.body.data.map((p: { publisher: unknown }) => p.publisher)).to.deep.equal([
      { id: publishers.zed, email: 'zed@example.com' },
      { id: publishers.amy, email: 'amy@example.com' },
    ]);
    const released = await get('/marketplace', ['join', 'project||appName'], ['fields', 'name,status']);
    expect(released.body.data).to.deep.equal([{ id: apps.desk, name: 'desk', status: 'RELEASE', project: { id: released.body.data[0].project.id, appName: 'desk' } }]);
  });

  it('selects fields (the id always comes along) and sorts', async () => {
    const res = await get('/applications', ['fields', 'name,status'], ['sort', 'name,DESC']);
    expect(res.body.data).to.deep.equal([
      { id: apps.signage, name: 'signage', status: 'SUBMISSION' },
      { id: apps.deskBeta, name: 'desk-beta', status: 'SUBMISSION' },
      { id: apps.desk, name: 'desk', status: 'RELEASE' },
    ]);
    expect((await get('/publishers', ['select', 'email'], ['sort', 'email,ASC'])).body.data).to.deep.equal([
      { id: publishers.amy, email: 'amy@example.com' },
      { id: publishers.zed, email: 'zed@example.com' },
    ]);
  });

  it('pages with the envelope', async () => {
    const second = await get('/applications', ['limit', '2'], ['page', '2']);
    expect(second.body).to.deep.equal({ data: [second.body.data[0]], count: 1, total: 3, page: 2, pageCount: 2 });
    expect(second.body.data[0].id).to.equal(apps.deskBeta);
    expect((await get('/applications', ['limit', '1'], ['offset', '1'])).body).to.deep.include({ count: 1, total: 3, page: 2, pageCount: 3 });
    expect((await get('/applications', ['limit', '101'])).status).to.equal(400);
  });

  it('never reaches the package: fields, filter, or, s, sort and join fields answer 400', async () => {
    const attempts: [string, [string, string][]][] = [
      ['/applications', [['fields', 'name,package']]],
      ['/applications', [['filter', 'package||$notnull']]],
      ['/applications', [['or', 'package||$isnull']]],
      ['/applications', [['s', '{"package":null}']]],
      ['/applications', [['sort', 'package,ASC']]],
      [`/applications/${apps.desk}`, [['fields', 'package']]],
      ['/marketplace', [['fields', 'package']]],
      ['/marketplace', [['filter', 'package||$isnull']]],
      ['/publishers', [['filter', 'oauthSubject||$isnull']]],
    ];
    for (const [path, params] of attempts) {
      const res = await get(path, ...params);
      expect(res.status, JSON.stringify(params)).to.equal(400);
      expect(res.body.message, JSON.stringify(params)).to.match(/cannot be used/);
    }
    expect(JSON.stringify((await get('/applications')).body)).not.to.include('package"');
  });

  it('answers 400, never 500, for bad values, names and ids', async () => {
    const bad: [string, [string, string][]][] = [
      ['/applications', [['filter', 'projectId||$eq||99999999999']]],
      ['/applications', [['filter', 'projectId||$eq||one']]],
      ['/applications', [['filter', 'name||$eq||a\u0000b']]],
      ['/applications', [['filter', 'createdAt||$gt||yesterday']]],
      ['/applications', [['filter', 'bogus||$eq||1']]],
      ['/applications', [['filter', 'project.bogus||$eq||1']]],
      ['/applications', [['join', 'owner']]],
      ['/applications', [['sort', 'name;DROP TABLE applications,ASC']]],
      ['/applications', [['filter', 'screenshotUrls||$eq||x']]],
      ['/applications/abc', []],
      ['/applications/99999999999', []],
      ['/marketplace/1.5', []],
      [`/applications/${apps.desk}`, [['filter', 'name||$eq||desk']]],
    ];
    for (const [path, params] of bad) {
      const res = await get(path, ...params);
      expect(res.status, `${path} ${JSON.stringify(params)}`).to.equal(400);
      expect(res.body.statusCode).to.equal(400);
    }
    const nul = await api.call('POST', '/publishers', { email: 'nul@example.com', name: 'a\u0000b' });
    expect(nul.status).to.equal(400);
    const big = await api.call('POST', '/purchases', { applicationId: 99999999999 });
    expect(big.status).to.equal(400);
  });
});
