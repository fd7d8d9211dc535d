import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { OAuth2Server } from 'oauth2-mock-server';
import { publisherSecret, seedProject, startPublishingServer, upload, uploadForm, type PublishingServer } from './publishing-api.js';
import { publisherEvents, publisherRows, signIn } from './sign-in-flow.js';

describe('publisher sign-in with an OpenID Connect provider', () => {
  let provider: OAuth2Server;
  let server: PublishingServer;
  let email: string | undefined;
  let emailVerified: unknown;
  let tokenAnswer: { statusCode: number; body: Record<string, unknown> } | null;

  before(async () => {
    provider = new OAuth2Server();
    await provider.issuer.keys.generate('RS256');
    await provider.start(0, '127.0.0.1');
    provider.service.on('beforeTokenSigning', (token) => {
      if (email !== undefined) token.payload.email = email;
      token.payload.email_verified = emailVerified;
    });
    provider.service.on('beforeResponse', (response) => {
      if (tokenAnswer) Object.assign(response, tokenAnswer);
    });
    server = await startPublishingServer({ OIDC_ISSUER: provider.issuer.url!, OIDC_CLIENT_ID: 'publisher-portal', OIDC_CLIENT_SECRET: 'portal-secret' });
  });
  beforeEach(() => {
    email = 'Ada@Example.com';
    emailVerified = true;
    tokenAnswer = null;
  });
  after(async () => {
    await server.stop();
    await provider.stop();
  });

  it('redirects to the provider with state, nonce and a PKCE S256 challenge, the state in an httpOnly cookie', async () => {
    const login = await fetch(`${server.url}/auth/oidc/login`, { redirect: 'manual' });
    expect(login.status).to.equal(302);
    const url = new URL(login.headers.get('location')!);
    expect(url.origin + url.pathname).to.equal(`${provider.issuer.url}/authorize`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).to.include({ client_id: 'publisher-portal', response_type: 'code', code_challenge_method: 'S256', redirect_uri: `${server.url}/auth/oidc/callback` });
    expect(params.scope!.split(' ')).to.include.members(['openid', 'email']);
    for (const name of ['state', 'nonce', 'code_challenge']) expect(params[name], name).to.have.length.above(20);
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).to.match(/^publisher_sign_in=[\w-]+;/);
    expect(cookie).to.match(/HttpOnly/).and.to.match(/SameSite=Lax/).and.to.match(/Path=\/auth\//).and.to.match(/Max-Age=600/);
    expect(cookie).not.to.include(params.state!);
  });

  it('signs a new publisher in end to end: unverified, a one-year HS256 token, PublisherCreated', async () => {
    const res = await signIn(server, 'oidc');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.body).to.deep.include({ tokenType: 'Bearer', expiresIn: 31_536_000 });
    const claims = jwt.verify(res.body.accessToken, publisherSecret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    const [publisher] = await publisherRows(server);
    expect(publisher).to.deep.equal({ id: publisher!.id, email: 'ada@example.com', verified: false, oauth_provider: 'oidc', oauth_subject: 'johndoe' });
    expect(claims).to.include({ sub: String(publisher!.id), email: 'ada@example.com' });
    expect(claims.roles).to.deep.equal(['LV4']);
    const events = await publisherEvents(server);
    expect(events.map((e) => [e.stream_id, e.event_type])).to.deep.equal([[`publisher-${publisher!.id}`, 'PublisherCreated']]);
    expect(events[0]!.data.record).to.include({ email: 'ada@example.com', verified: false });
    expect(res.headers.get('set-cookie')).to.match(/^publisher_sign_in=;.*Expires=Thu, 01 Jan 1970/);
  });

  it('signs the same publisher in again by e-mail, whatever its case, without a new record', async () => {
    email = 'ADA@example.COM';
    const [publisher] = await publisherRows(server);
    const res = await signIn(server, 'oidc');
    expect(res.status).to.equal(200);
    expect((jwt.decode(res.body.accessToken) as jwt.JwtPayload).sub).to.equal(String(publisher!.id));
    expect(await publisherRows(server)).to.have.length(1);
    expect(await publisherEvents(server)).to.have.length(1);
  });

  it('lets the token publish once an administrator has verified the publisher', async () => {
    const { body } = await signIn(server, 'oidc');
    const [publisher] = await publisherRows(server);
    await seedProject(server, 'notes', '1.0', publisher!.id);
    const refused = await upload(server, uploadForm(), body.accessToken);
    expect(refused.status).to.equal(403);
    expect(refused.body.message).to.equal('Publisher is not verified. Please contact the platform administrator.');
    const verify = await server.request('PATCH', `/catalog/v1/publishers/${publisher!.id}`, { token: server.token({ level: 'LV1' }), body: { verified: true } });
    expect(verify.status, JSON.stringify(verify.body)).to.equal(200);
    const accepted = await upload(server, uploadForm(), body.accessToken);
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(201);
    expect(accepted.body).to.include({ publisherId: publisher!.id, status: 'SUBMISSION' });
  });

  describe('refusals create no publisher', () => {
    let before: unknown[];
    beforeEach(async () => {
      before = await publisherRows(server);
    });
    afterEach(async () => {
      expect(await publisherRows(server)).to.deep.equal(before);
    });

    it('400 when the state does not match the cookie’s', async () => {
      email = 'mallory@example.com';
      const res = await signIn(server, 'oidc', (callback, cookie) => {
        callback.searchParams.set('state', 'forged-state-value-of-some-length');
        return { callback, cookie };
      });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ statusCode: 400, message: 'state does not match the sign-in in progress' });
    });

    it('400 without the sign-in cookie (a callback the browser never started)', async () => {
      const res = await signIn(server, 'oidc', (callback) => ({ callback, cookie: null }));
      expect(res.status).to.equal(400);
      expect(res.body.message).to.match(/no sign-in in progress/);
    });

    it('400 with a forged or altered cookie', async () => {
      const res = await signIn(server, 'oidc', (callback, cookie) => ({ callback, cookie: `${cookie.slice(0, -4)}AAAA` }));
      expect(res.status).to.equal(400);
    });

    it('400 without code, and when the provider reports an error', async () => {
      const noCode = await signIn(server, 'oidc', (callback, cookie) => {
        callback.searchParams.delete('code');
        return { callback, cookie };
      });
      expect(noCode.status).to.equal(400);
      expect(noCode.body.message).to.equal('code is required');
      const denied = await signIn(server, 'oidc', (callback, cookie) => {
        callback.searchParams.delete('code');
        callback.searchParams.set('error', 'access_denied');
        return { callback, cookie };
      });
      expect(denied.status).to.equal(400);
      expect(denied.body.message).to.equal('sign-in was refused by oidc: access_denied');
    });

    it('400 when the provider refuses the code (invalid_grant)', async () => {
      tokenAnswer = { statusCode: 400, body: { error: 'invalid_grant', error_description: 'code expired' } };
      const res = await signIn(server, 'oidc');
      expect(res.status).to.equal(400);
      expect(res.body.message).to.match(/code is invalid or expired/);
    });

    it('503 when the provider’s token endpoint fails', async () => {
      tokenAnswer = { statusCode: 500, body: { error: 'server_error' } };
      const res = await signIn(server, 'oidc');
      expect(res.status).to.equal(503);
      expect(res.body.statusCode).to.equal(503);
      expect(res.body.message).to.match(/^the sign-in provider oidc failed/);
    });

    it('403 when the provider has not verified the e-mail address', async () => {
      email = 'unverified@example.com';
      emailVerified = false;
      const res = await signIn(server, 'oidc');
      expect(res.status).to.equal(403);
      expect(res.body.message).to.match(/has not verified the e-mail address/);
    });

    it('403 when the provider shares no e-mail address', async () => {
      email = undefined;
      const res = await signIn(server, 'oidc');
      expect(res.status).to.equal(403);
      expect(res.body.message).to.match(/did not share an e-mail address/);
    });
  });

  it('404 for a provider that is not configured, and for one that does not exist', async () => {
    for (const path of ['/auth/google/login', '/auth/github/login', '/auth/github/callback?code=x&state=y', '/auth/facebook/login']) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).to.equal(404);
      expect((await res.json()).statusCode).to.equal(404);
    }
  });

  it('400 for a callback parameter given twice (never a 500)', async () => {
    const res = await fetch(`${server.url}/auth/oidc/callback?state=a&state=b&code=c`);
    expect(res.status).to.equal(400);
  });
});

describe('publisher sign-in when the provider is down', () => {
  let server: PublishingServer;
  before(async () => {
    server = await startPublishingServer({ OIDC_ISSUER: 'http://127.0.0.1:9', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' });
  });
  after(() => server.stop());

  it('answers 503 at login', async () => {
    const res = await fetch(`${server.url}/auth/oidc/login`, { redirect: 'manual' });
    expect(res.status).to.equal(503);
    expect((await res.json()).message).to.match(/^the sign-in provider oidc failed: discovery/);
  });
});
