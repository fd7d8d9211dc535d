import { expect } from 'chai';
import { applicationStatuses, statusMoves } from '../../../src/domain/catalog/application-status.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { catalogClient, catalogEvents } from './catalog-api.js';

describe('moving an application between statuses over HTTP', function () {
  this.timeout(120_000);
  let server: TestServer;
  let api: ReturnType<typeof catalogClient>;
  let projectId: number;
  const move = (id: number, status: string, token?: string) => api.call('PATCH', `/applications/${id}/status`, { status }, token);

  before(async () => {
    server = await startTestServer();
    api = catalogClient(server);
    projectId = (await api.project('moves', '1', null)).id;
  });
  after(() => server.stop());

  it('allows exactly the moves of contract §10 (all 36 pairs) and answers 200 with the record or 409 invalid_transition', async () => {
    const outcomes: string[] = [];
    for (const from of applicationStatuses) {
      for (const to of applicationStatuses) {
        const application = await api.application(`moves-${from}-${to}`.toLowerCase(), '1', projectId);
        await api.moveTo(application.id, from);
        const res = await move(application.id, to);
        if (statusMoves[from].includes(to)) {
          expect(res.status, `${from} → ${to}`).to.equal(200);
          expect(res.body).to.deep.include({ id: application.id, status: to, createdAt: application.createdAt });
          outcomes.push(`${from}→${to}`);
        } else {
          expect(res.status, `${from} → ${to}`).to.equal(409);
          expect(res.body).to.deep.equal({ statusCode: 409, message: `an application in status ${from} cannot move to ${to}`, reason: 'invalid_transition' });
          expect((await api.call('GET', `/applications/${application.id}`)).body.status).to.equal(from);
        }
      }
    }
    expect(outcomes).to.deep.equal([
      'SUBMISSION→REVIEW',
      'REVIEW→SUBMISSION',
      'REVIEW→APPROVAL',
      'APPROVAL→REVIEW',
      'APPROVAL→PRE_RELEASE',
      'PRE_RELEASE→REVIEW',
      'PRE_RELEASE→RELEASE',
      'RELEASE→UNAVAILABLE',
      'UNAVAILABLE→REVIEW',
      'UNAVAILABLE→RELEASE',
    ]);
  });

  it('appends ApplicationStatusChanged with from, to, by and at on the application\'s stream; a refused move appends nothing', async () => {
    const application = await api.application('moves-events', '1', projectId);
    const moved = (await move(application.id, 'REVIEW')).body;
    await move(application.id, 'RELEASE');
    const events = (await catalogEvents(server, 'application')).filter((e) => e.stream_id === `application-${application.id}`);
    expect(events.map((e) => e.event_type)).to.deep.equal(['ApplicationCreated', 'ApplicationStatusChanged']);
    const data = events[1]!.data as Record<string, unknown>;
    expect(data).to.deep.include({ workspace: null, id: application.id, from: 'SUBMISSION', to: 'REVIEW', by: 'admin-1', record: moved });
    expect(Date.parse(data.at as string)).to.be.closeTo(Date.parse(moved.updatedAt), 1000);
  });

  it('is for LV1 only: every other level gets 403 and the status stays', async () => {
    const application = await api.application('moves-levels', '1', projectId);
    for (const level of ['LV2', 'LV3', 'LV4', 'LV5'] as const) {
      const res = await move(application.id, 'REVIEW', server.token({ level }));
      expect(res.status, level).to.equal(403);
      expect(res.body.message).to.match(new RegExp(`^${level} may not change the status`));
    }
    expect((await api.call('GET', `/applications/${application.id}`)).body.status).to.equal('SUBMISSION');
  });

  it('answers 404 for a missing application and 400 for a bad body or id', async () => {
    expect((await move(999999, 'REVIEW')).body).to.deep.equal({ statusCode: 404, message: 'Application not found' });
    const application = await api.application('moves-bad', '1', projectId);
    for (const body of [{ status: 'PUBLISHED' }, { status: 'review' }, {}, { status: 'REVIEW', by: 'x' }, { status: null }]) {
      const res = await api.call('PATCH', `/applications/${application.id}/status`, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
    }
    expect((await move('abc' as unknown as number, 'REVIEW')).status).to.equal(400);
    expect((await api.call('PATCH', `/applications/${application.id}/status`, '{"status":')).status).to.equal(400);
  });
});
