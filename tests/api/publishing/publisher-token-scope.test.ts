import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { platformKey } from '../../support/test-keys.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { publisherSecret, publisherToken, seedProject, seedPublisher, startPublishingServer, upload, uploadForm, type PublishingServer } from './publishing-api.js';

describe('publisher tokens and platform tokens stay on their own routes', () => {
  let server: PublishingServer;
  let publisher: number;
  before(async () => {
    server = await startPublishingServer();
    publisher = await seedPublisher(server, 'scoped@example.com');
    await seedProject(server, 'notes', '1.0', publisher);
  });
  after(() => server.stop());

  for (const path of ['/booking/v1/resources', '/device/v1/zones', '/catalog/v1/applications']) {
    it(`a publisher token on ${path} → 401`, async () => {
      const res = await server.request('GET', path, { token: publisherToken(publisher) });
      expect(res.status).to.equal(401);
      expect(res.body.statusCode).to.equal(401);
    });
  }

  it('an HS256 token with platform claims, signed with the publisher secret, on /booking/v1/resources → 401', async () => {
    const token = jwt.sign({ sub: 'x', roles: ['LV1'], workspace: server.workspace }, publisherSecret, { algorithm: 'HS256', expiresIn: 60 });
    expect((await server.request('GET', '/booking/v1/resources', { token })).status).to.equal(401);
  });

  for (const route of ['/publish/app', '/publisher/app']) {
    it(`a platform RS256 token on ${route} → 401, even LV1 with the publisher's id as sub`, async () => {
      const token = jwt.sign({ sub: String(publisher), email: 'scoped@example.com', roles: ['LV1'], aud: 'publishing' }, platformKey.privateKey, {
        algorithm: 'RS256',
        expiresIn: 60,
      });
      const res = await upload(server, uploadForm(), token, route);
      expect(res.status).to.equal(401);
      expect(res.body.statusCode).to.equal(401);
    });
  }

  it('the publisher token itself is accepted for publishing', async () => {
    expect((await upload(server, uploadForm(), publisherToken(publisher))).status).to.equal(201);
  });
});

describe('publishing in production without PUBLISHER_TOKEN_SECRET', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ OIDC_ISSUER: 'http://127.0.0.1:9/', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' });
  });
  after(() => server.stop());

  it('answers 503 on the publishing and sign-in routes, saying why', async () => {
    for (const path of ['/publish/app', '/publisher/app']) {
      const res = await upload(server, uploadForm(), 'any', path);
      expect(res.status, path).to.equal(503);
      expect(res.body).to.deep.equal({ statusCode: 503, message: 'publishing is disabled: PUBLISHER_TOKEN_SECRET is not set' });
    }
    for (const path of ['/publish/projects', '/publish/applications']) {
      const res = await server.request('GET', path, { token: 'any' });
      expect(res.status, path).to.equal(503);
    }
    for (const path of ['/auth/oidc/login', '/auth/oidc/callback?code=c&state=s']) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).to.equal(503);
    }
  });

  it('keeps the rest of the service running', async () => {
    expect((await server.request('GET', '/booking/v1/health', { token: null })).status).to.equal(200);
    expect((await server.request('GET', '/booking/v1/resources')).status).to.equal(200);
  });

  it('still serves the publishing description', async () => {
    const res = await fetch(`${server.url}/publish/docs-yaml`);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.include('/publish/app:');
  });
});
