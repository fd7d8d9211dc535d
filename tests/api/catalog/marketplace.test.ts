import { expect } from 'chai';
import type { ApplicationStatus } from '../../../src/domain/catalog/application-status.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { withQuery } from '../record/record-api.js';
import { catalogClient, ids } from './catalog-api.js';

describe('the marketplace is the released applications', function () {
  this.timeout(60_000);
  let server: TestServer;
  let api: ReturnType<typeof catalogClient>;
  const apps: Partial<Record<ApplicationStatus, number>> = {};
  const statuses: ApplicationStatus[] = ['SUBMISSION', 'REVIEW', 'APPROVAL', 'PRE_RELEASE', 'RELEASE', 'UNAVAILABLE'];
  const guest = () => server.token({ level: 'LV5' });
  const marketplace = async (token = api.admin) => ids(await api.call('GET', '/marketplace', undefined, token));

  before(async () => {
    server = await startTestServer();
    api = catalogClient(server);
    const project = await api.project('market', '1', null);
    for (const status of statuses) {
      const application = await api.application(`market-${status.toLowerCase()}`, '1', project.id);
      await api.moveTo(application.id, status);
      apps[status] = application.id;
    }
  });
  after(() => server.stop());

  it('lists the application in RELEASE, as its application record, for every level', async () => {
    for (const token of [guest(), api.admin]) {
      const res = await api.call('GET', '/marketplace', undefined, token);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ count: 1, total: 1, page: 1, pageCount: 1 });
      const application = (await api.call('GET', `/applications/${apps.RELEASE}`)).body;
      expect(res.body.data).to.deep.equal([application]);
    }
  });

  it('reads a released application by its id; any other status answers 404', async () => {
    for (const status of statuses) {
      const res = await api.call('GET', `/marketplace/${apps[status]}`, undefined, guest());
      expect(res.status, status).to.equal(status === 'RELEASE' ? 200 : 404);
      if (status === 'RELEASE') expect(res.body).to.deep.include({ id: apps.RELEASE, status: 'RELEASE' });
    }
  });

  it('puts an application in at once when it moves to RELEASE, and takes it out at once when it leaves', async () => {
    expect((await api.call('PATCH', `/applications/${apps.PRE_RELEASE}/status`, { status: 'RELEASE' })).status).to.equal(200);
    expect(await marketplace(guest())).to.deep.equal([apps.PRE_RELEASE, apps.RELEASE]);
    expect((await api.call('GET', `/marketplace/${apps.PRE_RELEASE}`, undefined, guest())).status).to.equal(200);

    expect((await api.call('PATCH', `/applications/${apps.PRE_RELEASE}/status`, { status: 'UNAVAILABLE' })).status).to.equal(200);
    expect(await marketplace(guest())).to.deep.equal([apps.RELEASE]);
    expect((await api.call('GET', `/marketplace/${apps.PRE_RELEASE}`, undefined, guest())).status).to.equal(404);

    expect((await api.call('PATCH', `/applications/${apps.PRE_RELEASE}/status`, { status: 'RELEASE' })).status).to.equal(200);
    expect(await marketplace(guest())).to.deep.equal([apps.PRE_RELEASE, apps.RELEASE]);
    expect((await api.call('PATCH', `/applications/${apps.PRE_RELEASE}/status`, { status: 'UNAVAILABLE' })).status).to.equal(200);
  });

  it('a refused status move leaves the marketplace as it was', async () => {
    const res = await api.call('PATCH', `/applications/${apps.SUBMISSION}/status`, { status: 'RELEASE' });
    expect(res.status).to.equal(409);
    const lv2 = await api.call('PATCH', `/applications/${apps.PRE_RELEASE}/status`, { status: 'RELEASE' }, server.token({ level: 'LV2' }));
    expect(lv2.status).to.equal(403);
    expect(await marketplace()).to.deep.equal([apps.RELEASE]);
  });

  it('takes the query language of applications, and no client condition reaches an application not released', async () => {
    expect(ids(await api.call('GET', withQuery('/marketplace', ['filter', 'name||$eq||market-release'])))).to.deep.equal([apps.RELEASE]);
    expect(ids(await api.call('GET', withQuery('/marketplace', ['filter', 'name||$eq||market-review'])))).to.deep.equal([]);
    const attempts: [string, string][][] = [
      [['or', 'status||$eq||SUBMISSION'], ['or', 'status||$ne||SUBMISSION']],
      [['s', JSON.stringify({ $or: [{ status: 'REVIEW' }, { name: { $cont: 'market' } }] })]],
      [['filter', 'status||$ne||RELEASE']],
    ];
    for (const params of attempts) {
      const res = await api.call('GET', withQuery('/marketplace', ...params));
      expect(res.status).to.equal(200);
      expect(ids(res).every((id) => id === apps.RELEASE), JSON.stringify(params)).to.equal(true);
    }
    expect((await api.call('GET', withQuery('/marketplace', ['filter', 'package||$isnull']))).status).to.equal(400);
  });

  it('is the same list as /applications/released', async () => {
    const released = await api.call('GET', '/applications/released', undefined, guest());
    expect(released.body).to.deep.equal((await api.call('GET', '/marketplace', undefined, guest())).body);
  });

  it('takes no writes, whatever the level: 405, and nothing changes', async () => {
    const attempts = [
      await api.call('POST', '/marketplace', { applicationId: apps.REVIEW }),
      await api.call('POST', '/marketplace/bulk', { bulk: [{ applicationId: apps.REVIEW }] }),
      await api.call('PATCH', `/marketplace/${apps.RELEASE}`, { displayName: 'Renamed' }),
      await api.call('PUT', `/marketplace/${apps.RELEASE}`, { name: 'x', displayName: 'X', version: '1', projectId: 1 }),
      await api.call('DELETE', `/marketplace/${apps.RELEASE}`),
      await api.call('DELETE', `/marketplace/${apps.RELEASE}`, undefined, server.token({ level: 'LV2' })),
    ];
    for (const res of attempts) {
      expect(res.status).to.equal(405);
      expect(res.body.statusCode).to.equal(405);
      expect(res.body.message).to.be.a('string');
    }
    expect(await marketplace()).to.deep.equal([apps.RELEASE]);
    expect((await api.call('GET', `/applications/${apps.RELEASE}`)).body.displayName).to.equal('App market-release');
  });
});
