import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { platformKey } from '../../support/test-keys.js';
import { publisherToken, seedProject, seedPublisher, startPublishingServer, upload, uploadForm, type PublishingServer } from './publishing-api.js';

const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((record) => record.id);

describe('a publisher reads its own work', () => {
  let server: PublishingServer;
  const mine = { publisher: 0, token: '', projects: [] as number[], application: 0 };
  const theirs = { publisher: 0, token: '', project: 0, application: 0 };

  before(async () => {
    server = await startPublishingServer();
    mine.publisher = await seedPublisher(server, 'mine@example.com');
    mine.token = publisherToken(mine.publisher, 'mine@example.com');
    theirs.publisher = await seedPublisher(server, 'theirs@example.com');
    theirs.token = publisherToken(theirs.publisher, 'theirs@example.com');
    mine.projects = [await seedProject(server, 'notes', '1.0', mine.publisher), await seedProject(server, 'notes', '2.0', mine.publisher)];
    theirs.project = await seedProject(server, 'board', '1.0', theirs.publisher);
    await seedProject(server, 'orphan', '1.0', null);
    const published = await upload(server, uploadForm(), mine.token);
    expect(published.status, JSON.stringify(published.body)).to.equal(201);
    mine.application = published.body.id;
    const other = await upload(server, uploadForm({ fields: { name: 'board', displayName: 'Board' } }), theirs.token);
    expect(other.status, JSON.stringify(other.body)).to.equal(201);
    theirs.application = other.body.id;
    const reviewer = server.token({ level: 'LV1', workspace: null });
    const moved = await server.request('PATCH', `/catalog/v1/applications/${mine.application}/status`, { body: { status: 'REVIEW' }, token: reviewer });
    expect(moved.status).to.equal(200);
  });
  after(() => server.stop());

  it('GET /publish/projects answers its own projects only, in the list envelope', async () => {
    const res = await server.request('GET', '/publish/projects', { token: mine.token });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ count: 2, total: 2, page: 1, pageCount: 1 });
    expect(ids(res)).to.deep.equal(mine.projects);
    expect(res.body.data[0]).to.deep.include({ appName: 'notes', appVersion: '1.0', publisherId: mine.publisher });
    expect(ids(await server.request('GET', '/publish/projects', { token: theirs.token }))).to.deep.equal([theirs.project]);
  });

  it('GET /publish/applications answers its own applications with their status, never the package', async () => {
    const res = await server.request('GET', '/publish/applications', { token: mine.token });
    expect(res.status).to.equal(200);
    expect(ids(res)).to.deep.equal([mine.application]);
    const [application] = res.body.data;
    expect(application).to.deep.include({ id: mine.application, name: 'notes', version: '1.0', status: 'REVIEW', publisherId: mine.publisher });
    expect(application.packageSize).to.be.a('number');
    expect(application).not.to.have.property('package');
    expect(JSON.stringify(res.body)).not.to.include('"package"');
    const catalog = await server.request('GET', `/catalog/v1/applications/${mine.application}`, { token: server.token({ level: 'LV5' }) });
    expect(application).to.deep.equal(catalog.body);
    const other = await server.request('GET', '/publish/applications', { token: theirs.token });
    expect(other.body.data.map((a: { id: number; status: string }) => [a.id, a.status])).to.deep.equal([[theirs.application, 'SUBMISSION']]);
  });

  it('takes the query language, but no condition reaches another publisher’s work', async () => {
    const get = (query: string) => server.request('GET', `/publish/applications?${query}`, { token: mine.token });
    expect(ids(await get('filter=status||$eq||REVIEW'))).to.deep.equal([mine.application]);
    expect(ids(await get('filter=status||$eq||SUBMISSION'))).to.deep.equal([]);
    expect((await get('fields=status')).body.data).to.deep.equal([{ id: mine.application, status: 'REVIEW' }]);
    expect(ids(await get(`filter=publisherId||$eq||${theirs.publisher}`))).to.deep.equal([]);
    expect(ids(await get(`or=publisherId||$eq||${theirs.publisher}&or=id||$gt||0`))).to.deep.equal([mine.application]);
    expect(ids(await get(`s=${encodeURIComponent(JSON.stringify({ $or: [{ publisherId: theirs.publisher }, { name: 'board' }] }))}`))).to.deep.equal([]);
    const projects = await server.request('GET', '/publish/projects?sort=appVersion,DESC&limit=1', { token: mine.token });
    expect(projects.body).to.deep.include({ count: 1, total: 2, pageCount: 2 });
    expect(ids(projects)).to.deep.equal([mine.projects[1]]);
  });

  it('answers 400 for what the query may not ask: the package, relations, unknown parameters', async () => {
    for (const query of ['fields=package', 'filter=package||$isnull', 'filter=name||$eq||a%00b', 'join=publisher', 'filter=project.appName||$eq||board', 'include=all', 'fields[a]=1', 'limit=101']) {
      const res = await server.request('GET', `/publish/applications?${query}`, { token: mine.token });
      expect(res.status, query).to.equal(400);
      expect(res.body.statusCode, query).to.equal(400);
    }
  });

  it('an unverified publisher reads its own projects too', async () => {
    const fresh = await seedPublisher(server, 'fresh@example.com', false);
    const project = await seedProject(server, 'fresh', '1.0', fresh);
    const res = await server.request('GET', '/publish/projects', { token: publisherToken(fresh, 'fresh@example.com') });
    expect(res.status).to.equal(200);
    expect(ids(res)).to.deep.equal([project]);
    expect((await server.request('GET', '/publish/applications', { token: publisherToken(fresh, 'fresh@example.com') })).body.total).to.equal(0);
  });

  for (const path of ['/publish/projects', '/publish/applications']) {
    it(`${path} refuses a platform token, no token and a publisher that no longer exists (401)`, async () => {
      const platform = jwt.sign({ sub: String(mine.publisher), email: 'mine@example.com', roles: ['LV1'], aud: 'publishing' }, platformKey.privateKey, {
        algorithm: 'RS256',
        expiresIn: 60,
      });
      for (const token of [platform, server.token({ level: 'LV1' }), null, publisherToken(999_999)]) {
        const res = await server.request('GET', path, { token });
        expect(res.status).to.equal(401);
        expect(res.body.statusCode).to.equal(401);
      }
    });
  }
});
