import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { catalogClient, catalogEvents, ids } from './catalog-api.js';

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('catalog records over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  let api: ReturnType<typeof catalogClient>;

  before(async () => {
    server = await startTestServer();
    api = catalogClient(server);
  });
  after(() => server.stop());

  describe('publishers', () => {
    it('are created unverified, with server ids and timestamps, and read back as created', async () => {
      const created = await api.publisher('ada');
      expect(created).to.deep.equal({ id: created.id, email: 'ada@example.com', name: 'Studio ada', verified: false, createdAt: created.createdAt, updatedAt: created.createdAt });
      expect(created.id).to.be.a('number');
      expect(created.createdAt).to.match(isoTime);
      expect((await api.call('GET', `/publishers/${created.id}`)).body).to.deep.equal(created);
    });

    it('are verified by an LV1 PATCH, which moves updatedAt only', async () => {
      const publisher = await api.publisher('bea');
      const res = await api.call('PATCH', `/publishers/${publisher.id}`, { verified: true });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ id: publisher.id, verified: true, createdAt: publisher.createdAt });
      expect(res.body.updatedAt >= publisher.updatedAt).to.equal(true);
    });

    it('are replaced as a whole by PUT (name left out is null, verified false) and PUT of a missing one is 404', async () => {
      const publisher = await api.publisher('cyd', { verified: true });
      const res = await api.call('PUT', `/publishers/${publisher.id}`, { email: 'cyd@studio.example' });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ id: publisher.id, email: 'cyd@studio.example', name: null, verified: false, createdAt: publisher.createdAt });
      const missing = await api.call('PUT', '/publishers/999999', { email: 'nobody@example.com' });
      expect(missing).to.deep.include({ status: 404, body: { statusCode: 404, message: 'Publisher not found' } });
      expect((await api.call('GET', '/publishers/999999')).status).to.equal(404);
    });

    it('keep their e-mail unique (409)', async () => {
      await api.publisher('dan');
      const res = await api.call('POST', '/publishers', { email: 'dan@example.com' });
      expect(res.status).to.equal(409);
      expect(res.body).to.deep.equal({ statusCode: 409, message: 'Publisher with email "dan@example.com" already exists' });
    });

    it('are deleted with the deleted record as the answer, then answer 404', async () => {
      const publisher = await api.publisher('eve');
      const res = await api.call('DELETE', `/publishers/${publisher.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(publisher);
      expect((await api.call('DELETE', `/publishers/${publisher.id}`)).status).to.equal(404);
    });

    it('cannot be deleted while projects or applications name them (409)', async () => {
      const publisher = await api.publisher('fay');
      const project = await api.project('fay-app', '1', publisher.id);
      const res = await api.call('DELETE', `/publishers/${publisher.id}`);
      expect(res).to.deep.include({ status: 409, body: { statusCode: 409, message: `Publisher ${publisher.id} still has projects` } });
      const other = await api.project('fay-other', '1', null);
      await api.application('fay-other', '1', other.id, { publisherId: publisher.id });
      await api.call('PATCH', `/projects/${project.id}`, { publisherId: null });
      expect((await api.call('DELETE', `/publishers/${publisher.id}`)).body.message).to.equal(`Publisher ${publisher.id} still has applications`);
    });
  });

  describe('projects', () => {
    it('name an existing publisher or none (400 for a missing one)', async () => {
      const publisher = await api.publisher('gus');
      const project = await api.project('gus-app', '1.0', publisher.id, { description: 'Signs' });
      expect(project).to.deep.include({ appName: 'gus-app', appVersion: '1.0', publisherId: publisher.id, description: 'Signs' });
      expect(await api.project('orphan', '1.0', null)).to.deep.include({ publisherId: null, description: null });
      const res = await api.call('POST', '/projects', { appName: 'ghost-app', appVersion: '1', publisherId: 999999 });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ statusCode: 400, message: 'Publisher 999999 does not exist', errors: [{ path: '/body/publisherId', message: 'Publisher 999999 does not exist' }] });
      expect((await api.call('PATCH', `/projects/${project.id}`, { publisherId: 999999 })).status).to.equal(400);
    });

    it('are unique by appName and appVersion (409), on create and on change', async () => {
      await api.project('hal-app', '1', null);
      const second = await api.project('hal-app', '2', null);
      const res = await api.call('POST', '/projects', { appName: 'hal-app', appVersion: '1' });
      expect(res.body).to.deep.equal({ statusCode: 409, message: 'Project with appName "hal-app" and appVersion "1" already exists' });
      expect((await api.call('PATCH', `/projects/${second.id}`, { appVersion: '1' })).status).to.equal(409);
      expect((await api.call('PATCH', `/projects/${second.id}`, { appVersion: '2', description: 'same key is fine' })).status).to.equal(200);
    });

    it('cannot be deleted while they have applications (409)', async () => {
      const project = await api.project('ivy-app', '1', null);
      const application = await api.application('ivy-app', '1', project.id);
      expect((await api.call('DELETE', `/projects/${project.id}`)).body).to.deep.equal({ statusCode: 409, message: `Project ${project.id} still has applications` });
      await api.call('DELETE', `/applications/${application.id}`);
      expect((await api.call('DELETE', `/projects/${project.id}`)).status).to.equal(200);
    });
  });

  describe('bulk creation', () => {
    const countOf = async (path: string) => (await api.call('GET', `${path}?limit=1`)).body.total as number;

    it('creates every record and answers them in the order given', async () => {
      const res = await api.call('POST', '/projects/bulk', { bulk: [{ appName: 'bulk-a', appVersion: '1' }, { appName: 'bulk-b', appVersion: '1', description: 'B' }] });
      expect(res.status).to.equal(201);
      expect(res.body.map((p: { appName: string }) => p.appName)).to.deep.equal(['bulk-a', 'bulk-b']);
      expect(res.body[1].id).to.equal(res.body[0].id + 1);
      expect(res.body[1]).to.deep.include({ description: 'B', publisherId: null });
    });

    it('stores nothing when one record is invalid, duplicated in the bulk, taken or names a missing record', async () => {
      const before = await countOf('/projects');
      const bulks = [
        [{ appName: 'bulk-c', appVersion: '1' }, { appName: 'bulk-d' }],
        [{ appName: 'bulk-c', appVersion: '1' }, { appName: 'bulk-c', appVersion: '1' }],
        [{ appName: 'bulk-c', appVersion: '1' }, { appName: 'bulk-a', appVersion: '1' }],
        [{ appName: 'bulk-c', appVersion: '1' }, { appName: 'bulk-e', appVersion: '1', publisherId: 999999 }],
      ];
      const statuses = [];
      for (const bulk of bulks) statuses.push((await api.call('POST', '/projects/bulk', { bulk })).status);
      expect(statuses).to.deep.equal([400, 409, 409, 400]);
      expect(await countOf('/projects')).to.equal(before);
      expect(ids(await api.call('GET', '/projects?filter=appName||$eq||bulk-c'))).to.deep.equal([]);
    });

    it('refuses an empty bulk or more than 100 records (400)', async () => {
      expect((await api.call('POST', '/publishers/bulk', { bulk: [] })).status).to.equal(400);
      const many = Array.from({ length: 101 }, (_, i) => ({ email: `many-${i}@example.com` }));
      expect((await api.call('POST', '/publishers/bulk', { bulk: many })).status).to.equal(400);
    });
  });

  describe('applications', () => {
    it('start in SUBMISSION without a package; server fields are refused in bodies (400)', async () => {
      const project = await api.project('jo-app', '1', null);
      const application = await api.application('jo-app', '1', project.id, { semVer: '1.0.0', screenshotUrls: ['https://cdn.example/1.png'] });
      expect(application).to.deep.equal({
        id: application.id,
        name: 'jo-app',
        displayName: 'App jo-app',
        version: '1',
        description: null,
        category: null,
        semVer: '1.0.0',
        status: 'SUBMISSION',
        projectId: project.id,
        publisherId: null,
        packageSize: null,
        packageSha256: null,
        iconUrl: null,
        screenshotUrls: ['https://cdn.example/1.png'],
        createdAt: application.createdAt,
        updatedAt: application.createdAt,
      });
      for (const field of [{ status: 'RELEASE' }, { packageSize: 1 }, { packageSha256: 'ab' }, { package: 'UEsDBA==' }, { id: 5 }, { createdAt: '2026-01-01T00:00:00Z' }]) {
        const create = await api.call('POST', '/applications', { name: 'jo-x', displayName: 'X', version: '1', projectId: project.id, ...field });
        expect(create.status, JSON.stringify(field)).to.equal(400);
        expect((await api.call('PATCH', `/applications/${application.id}`, field)).status, JSON.stringify(field)).to.equal(400);
      }
    });

    it('must name an existing project (400) and be unique by name and version (409)', async () => {
      const project = await api.project('kim-app', '1', null);
      await api.application('kim-app', '1', project.id);
      expect((await api.call('POST', '/applications', { name: 'kim-2', displayName: 'K', version: '1', projectId: 999999 })).body.message).to.equal('Project 999999 does not exist');
      const twice = await api.call('POST', '/applications', { name: 'kim-app', displayName: 'K', version: '1', projectId: project.id });
      expect(twice.body).to.deep.equal({ statusCode: 409, message: 'Application with name "kim-app" and version "1" already exists' });
    });

    it('keep their status and package fields through PATCH and PUT', async () => {
      const project = await api.project('lou-app', '1', null);
      const application = await api.application('lou-app', '1', project.id, { category: 'tools', iconUrl: 'https://cdn.example/i.png' });
      await api.moveTo(application.id, 'REVIEW');
      const patched = await api.call('PATCH', `/applications/${application.id}`, { displayName: 'Lou' });
      expect(patched.body).to.deep.include({ displayName: 'Lou', status: 'REVIEW', category: 'tools' });
      const replaced = await api.call('PUT', `/applications/${application.id}`, { name: 'lou-app', displayName: 'Lou 2', version: '1', projectId: project.id });
      expect(replaced.status).to.equal(200);
      expect(replaced.body).to.deep.include({ displayName: 'Lou 2', status: 'REVIEW', category: null, iconUrl: null, screenshotUrls: [], packageSize: null, createdAt: application.createdAt });
      expect((await api.call('PUT', '/applications/999999', { name: 'n', displayName: 'N', version: '1', projectId: project.id })).status).to.equal(404);
    });

    it('cannot be deleted while purchased (409)', async () => {
      const project = await api.project('max-app', '1', null);
      const application = await api.application('max-app', '1', project.id);
      const purchase = await api.call('POST', '/purchases', { applicationId: application.id, workspace: server.workspace });
      expect(purchase.status).to.equal(201);
      expect((await api.call('DELETE', `/applications/${application.id}`)).body.message).to.equal(`Application ${application.id} still has purchases`);
      expect((await api.call('DELETE', `/purchases/${purchase.body.id}`)).status).to.equal(200);
      expect((await api.call('DELETE', `/applications/${application.id}`)).status).to.equal(200);
    });
  });

  describe('purchases', () => {
    it('default to the workspace acted in, and always name the caller as buyer', async () => {
      const project = await api.project('ned-app', '1', null);
      const application = await api.application('ned-app', '1', project.id);
      const lv2 = server.token({ level: 'LV2', sub: 'buyer-7' });
      const res = await api.call('POST', '/purchases', { applicationId: application.id }, lv2);
      expect(res.status).to.equal(201);
      expect(res.body).to.deep.equal({ id: res.body.id, workspace: server.workspace, applicationId: application.id, purchasedBy: 'buyer-7', createdAt: res.body.createdAt, updatedAt: res.body.createdAt });
      const named = await api.call('POST', '/purchases', { applicationId: application.id }, api.admin, { 'x-workspace': server.workspace });
      expect(named.body).to.deep.include({ workspace: server.workspace, purchasedBy: 'admin-1' });
      const bulk = await api.call('POST', '/purchases/bulk', { bulk: [{ applicationId: application.id }, { applicationId: application.id, purchasedBy: 'someone' }] }, lv2);
      expect(bulk.body.map((p: { purchasedBy: string }) => p.purchasedBy)).to.deep.equal(['buyer-7', 'buyer-7']);
    });

    it('need a workspace from an LV1 without one (400) and an existing application (400)', async () => {
      expect((await api.call('POST', '/purchases', { applicationId: 1 })).body.message).to.match(/workspace' is required/);
      expect((await api.call('POST', '/purchases', { applicationId: 999999, workspace: server.workspace })).body.message).to.equal('Application 999999 does not exist');
    });

    it('are replaced whole (PUT needs every field) and deleted', async () => {
      const project = await api.project('oli-app', '1', null);
      const application = await api.application('oli-app', '1', project.id);
      const purchase = (await api.call('POST', '/purchases', { applicationId: application.id, workspace: server.workspace })).body;
      expect((await api.call('PUT', `/purchases/${purchase.id}`, { applicationId: application.id })).status).to.equal(400);
      const replaced = await api.call('PUT', `/purchases/${purchase.id}`, { applicationId: application.id, workspace: server.workspace, purchasedBy: 'u-2' });
      expect(replaced.body).to.deep.include({ id: purchase.id, purchasedBy: 'u-2' });
      expect((await api.call('PUT', '/purchases/999999', { applicationId: application.id, workspace: server.workspace, purchasedBy: 'u' })).status).to.equal(404);
      expect((await api.call('DELETE', `/purchases/${purchase.id}`)).body).to.deep.include({ id: purchase.id, purchasedBy: 'u-2' });
    });
  });

  describe('events', () => {
    it('every create, change and delete appends one event carrying the record as answered', async () => {
      const project = await api.project('quin-app', '1', null);
      const changed = (await api.call('PATCH', `/projects/${project.id}`, { description: 'Q' })).body;
      await api.call('PATCH', `/projects/${project.id}`, { description: 'Q' });
      const deleted = (await api.call('DELETE', `/projects/${project.id}`)).body;
      const events = (await catalogEvents(server, 'project')).filter((e) => e.stream_id === `project-${project.id}`);
      expect(events.map((e) => e.event_type)).to.deep.equal(['ProjectCreated', 'ProjectUpdated', 'ProjectDeleted']);
      expect(events.map((e) => e.data.record)).to.deep.equal([project, changed, deleted]);
      expect(events[0]!.data).to.deep.include({ workspace: null, id: project.id, by: 'admin-1' });
    });

    it('purchases stream per workspace', async () => {
      const purchases = await catalogEvents(server, 'purchase');
      expect(purchases.length).to.be.greaterThan(0);
      for (const event of purchases) expect(event.stream_id).to.equal(`purchase-${server.workspace}-${event.data.id}`);
    });
  });
});
