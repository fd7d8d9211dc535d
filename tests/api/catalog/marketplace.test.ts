import { expect } from 'chai';
import type { ApplicationStatus } from '../../../src/domain/catalog/application-status.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { withQuery } from '../records/record-api.js';
import { catalogClient, ids } from './catalog-api.js';

describe('the marketplace shows released applications only', function () {
  this.timeout(60_000);
  let server: TestServer;
  let api: ReturnType<typeof catalogClient>;
  const entries: Partial<Record<ApplicationStatus, number>> = {};
  const apps: Partial<Record<ApplicationStatus, number>> = {};
  const statuses: ApplicationStatus[] = ['SUBMISSION', 'REVIEW', 'APPROVAL', 'PRE_RELEASE', 'RELEASE', 'UNAVAILABLE'];
  const guest = () => server.token({ level: 'LV5' });

  before(async () => {
    server = await startTestServer();
    api = catalogClient(server);
    const project = await api.project('market', '1', null);
    for (const status of statuses) {
      const application = await api.application(`market-${status.toLowerCase()}`, '1', project.id);
      await api.moveTo(application.id, status);
      apps[status] = application.id;
      const entry = await api.call('POST', '/marketplace', { applicationId: application.id, tagline: status });
      expect(entry.status, 'an entry may be created whatever the status').to.equal(201);
      entries[status] = entry.body.id;
    }
  });
  after(() => server.stop());

  it('lists only the entry of the released application, for every level', async () => {
    for (const token of [guest(), api.admin]) {
      const res = await api.call('GET', '/marketplace', undefined, token);
      expect(res.body).to.deep.include({ count: 1, total: 1 });
      expect(ids(res)).to.deep.equal([entries.RELEASE]);
    }
  });

  it('answers 404 when reading an entry whose application is not released', async () => {
    for (const status of statuses) {
      const res = await api.call('GET', `/marketplace/${entries[status]}`, undefined, guest());
      expect(res.status, status).to.equal(status === 'RELEASE' ? 200 : 404);
    }
  });

  it('no client condition reaches a hidden entry', async () => {
    const attempts: [string, string][][] = [
      [['or', 'application.status||$eq||SUBMISSION'], ['or', 'featured||$eq||false']],
      [['s', JSON.stringify({ $or: [{ 'application.status': 'REVIEW' }, { featured: false }] })]],
      [['filter', 'application.status||$ne||RELEASE']],
    ];
    for (const params of attempts) {
      const res = await api.call('GET', withQuery('/marketplace', ...params));
      expect(res.status).to.equal(200);
      expect(ids(res).every((id) => id === entries.RELEASE), JSON.stringify(params)).to.equal(true);
    }
  });

  it('shows an entry once its application is released and hides it again when it becomes unavailable', async () => {
    await api.call('PATCH', `/applications/${apps.PRE_RELEASE}/status`, { status: 'RELEASE' });
    expect(ids(await api.call('GET', '/marketplace'))).to.deep.equal([entries.PRE_RELEASE, entries.RELEASE]);
    await api.call('PATCH', `/applications/${apps.PRE_RELEASE}/status`, { status: 'UNAVAILABLE' });
    expect(ids(await api.call('GET', '/marketplace'))).to.deep.equal([entries.RELEASE]);
  });

  it('LV1 still changes and deletes a hidden entry', async () => {
    const patched = await api.call('PATCH', `/marketplace/${entries.REVIEW}`, { featured: true });
    expect(patched.body).to.deep.include({ id: entries.REVIEW, featured: true });
    expect((await api.call('DELETE', `/marketplace/${entries.SUBMISSION}`)).status).to.equal(200);
    expect((await api.call('GET', `/marketplace/${entries.SUBMISSION}`)).status).to.equal(404);
  });

  describe('the released applications list', () => {
    it('answers only applications in RELEASE, whatever the query asks', async () => {
      const res = await api.call('GET', '/applications/released', undefined, guest());
      expect(res.body).to.deep.include({ total: 1, count: 1, page: 1, pageCount: 1 });
      expect(res.body.data[0]).to.deep.include({ id: apps.RELEASE, status: 'RELEASE' });
      expect(ids(await api.call('GET', withQuery('/applications/released', ['or', 'status||$eq||REVIEW'], ['or', 'status||$eq||SUBMISSION'])))).to.deep.equal([]);
      expect(ids(await api.call('GET', withQuery('/applications/released', ['fields', 'name'], ['join', 'project||appName'])))).to.deep.equal([apps.RELEASE]);
      expect((await api.call('GET', withQuery('/applications/released', ['filter', 'package||$isnull']))).status).to.equal(400);
    });

    it('while the list of all applications answers every status', async () => {
      expect((await api.call('GET', '/applications', undefined, guest())).body.total).to.equal(statuses.length);
      expect((await api.call('GET', `/applications/${apps.SUBMISSION}`, undefined, guest())).status).to.equal(200);
    });
  });
});
