import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { catalogClient, ids } from './catalog-api.js';

describe('who may read and write catalog records', function () {
  this.timeout(60_000);
  let server: TestServer;
  let api: ReturnType<typeof catalogClient>;
  const seeded = { publisher: 0, project: 0, application: 0 };
  const other = randomUUID();
  const levels = ['LV2', 'LV3', 'LV4', 'LV5'] as const;

  before(async () => {
    server = await startTestServer();
    api = catalogClient(server);
    seeded.publisher = (await api.publisher('perm')).id;
    seeded.project = (await api.project('perm-app', '1', seeded.publisher)).id;
    seeded.application = (await api.application('perm-app', '1', seeded.project)).id;
    await api.moveTo(seeded.application, 'RELEASE');
  });
  after(() => server.stop());

  describe('projects, applications and publishers (platform-wide)', () => {
    const bodies = () => ({
      projects: { appName: 'x-app', appVersion: '9' },
      applications: { name: 'x-app', displayName: 'X', version: '9', projectId: seeded.project },
      publishers: { email: 'x@example.com' },
    });
    const idOf = () => ({ projects: seeded.project, applications: seeded.application, publishers: seeded.publisher });

    it('are read by every level, as is the marketplace', async () => {
      for (const level of levels) {
        const token = server.token({ level });
        for (const [path, id] of Object.entries({ ...idOf(), marketplace: seeded.application })) {
          expect((await api.call('GET', `/${path}`, undefined, token)).body.total, `${level} ${path}`).to.equal(1);
          expect((await api.call('GET', `/${path}/${id}`, undefined, token)).status, `${level} ${path}`).to.equal(200);
        }
      }
    });

    it('are written by LV1 only: every other level gets 403 and nothing changes', async () => {
      for (const level of levels) {
        const token = server.token({ level });
        for (const [path, body] of Object.entries(bodies())) {
          const id = idOf()[path as keyof ReturnType<typeof idOf>];
          const attempts = [
            await api.call('POST', `/${path}`, body, token),
            await api.call('POST', `/${path}/bulk`, { bulk: [body] }, token),
            await api.call('PATCH', `/${path}/${id}`, body, token),
            await api.call('PUT', `/${path}/${id}`, body, token),
            await api.call('DELETE', `/${path}/${id}`, undefined, token),
          ];
          expect(attempts.map((res) => res.status), `${level} ${path}`).to.deep.equal([403, 403, 403, 403, 403]);
          expect(attempts[0]!.body.message).to.match(new RegExp(`^${level} may not create `));
        }
      }
      expect((await api.call('GET', '/projects')).body.total).to.equal(1);
      expect((await api.call('GET', `/publishers/${seeded.publisher}`)).body.verified).to.equal(false);
    });

    it('answer 404 before 403 for a record that does not exist', async () => {
      expect((await api.call('PATCH', '/projects/999999', { description: 'x' }, server.token({ level: 'LV2' }))).status).to.equal(404);
    });
  });

  describe('purchases (workspace-scoped)', () => {
    let mine: number;
    let theirs: number;

    before(async () => {
      mine = (await api.call('POST', '/purchases', { applicationId: seeded.application }, server.token({ level: 'LV2', sub: 'me' }))).body.id;
      theirs = (await api.call('POST', '/purchases', { applicationId: seeded.application }, server.token({ level: 'LV2', workspace: other, sub: 'them' }))).body.id;
    });

    it('are read in the token\'s workspace only: another workspace\'s are absent from lists and 404 on read', async () => {
      for (const level of levels) {
        const token = server.token({ level });
        expect(ids(await api.call('GET', '/purchases', undefined, token)), level).to.deep.equal([mine]);
        expect((await api.call('GET', `/purchases/${theirs}`, undefined, token)).status, level).to.equal(404);
        expect((await api.call('GET', `/purchases/${mine}`, undefined, token)).status, level).to.equal(200);
      }
      expect(ids(await api.call('GET', '/purchases'))).to.deep.equal([mine, theirs]);
      expect(ids(await api.call('GET', '/purchases', undefined, api.admin, { 'x-workspace': other }))).to.deep.equal([theirs]);
    });

    it('are written by LV2 in its own workspace only (403 for another, 404 for a purchase there)', async () => {
      const lv2 = server.token({ level: 'LV2' });
      expect((await api.call('POST', '/purchases', { applicationId: seeded.application, workspace: other }, lv2)).status).to.equal(403);
      expect((await api.call('POST', '/purchases', { applicationId: seeded.application }, lv2, { 'x-workspace': other })).status).to.equal(403);
      expect((await api.call('PATCH', `/purchases/${theirs}`, { purchasedBy: 'x' }, lv2)).status).to.equal(404);
      expect((await api.call('DELETE', `/purchases/${theirs}`, undefined, lv2)).status).to.equal(404);
      expect((await api.call('PATCH', `/purchases/${mine}`, { workspace: other }, lv2)).status).to.equal(403);
      expect((await api.call('PATCH', `/purchases/${mine}`, { purchasedBy: 'me-too' }, lv2)).body.purchasedBy).to.equal('me-too');
    });

    it('are not written below LV2 (403)', async () => {
      for (const level of ['LV3', 'LV4', 'LV5'] as const) {
        const token = server.token({ level });
        expect((await api.call('POST', '/purchases', { applicationId: seeded.application }, token)).status, level).to.equal(403);
        expect((await api.call('PATCH', `/purchases/${mine}`, { purchasedBy: 'x' }, token)).status, level).to.equal(403);
        expect((await api.call('DELETE', `/purchases/${mine}`, undefined, token)).status, level).to.equal(403);
      }
    });

    it('are written by LV1 in any workspace', async () => {
      const created = await api.call('POST', '/purchases', { applicationId: seeded.application, workspace: other });
      expect(created.body).to.deep.include({ workspace: other, purchasedBy: 'admin-1' });
      expect((await api.call('DELETE', `/purchases/${created.body.id}`)).status).to.equal(200);
    });
  });

  it('needs a valid token (401)', async () => {
    expect((await api.call('GET', '/projects', undefined, null as unknown as string)).status).to.equal(401);
    expect((await api.call('GET', '/projects', undefined, 'not-a-token')).status).to.equal(401);
  });
});
