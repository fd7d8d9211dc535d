import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { startPublishingServer, type PublishingServer } from './publishing-api.js';
import { startFakeGithub, type FakeGithub } from './fake-github.js';
import { publisherRows, signIn } from './sign-in-flow.js';

describe('publisher sign-in with GitHub', () => {
  let github: FakeGithub;
  let server: PublishingServer;
  before(async () => {
    github = await startFakeGithub();
    // Google is configured too (never reached) so that a GitHub sign-in's cookie can be sent to its callback.
    server = await startPublishingServer({ ...github.env, GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'gs', GOOGLE_ISSUER: 'http://127.0.0.1:9' });
  });
  beforeEach(() => {
    github.emails = [
      { email: 'octo-old@example.com', primary: false, verified: true },
      { email: 'octocat@example.com', primary: true, verified: true },
    ];
    github.apiFailure = null;
  });
  after(async () => {
    await server.stop();
    await github.close();
  });

  it('asks for the e-mail scope with a PKCE S256 challenge', async () => {
    const { authorizeUrl } = await signIn(server, 'github');
    expect(Object.fromEntries(authorizeUrl.searchParams)).to.include({ client_id: 'gh-client', scope: 'read:user user:email', code_challenge_method: 'S256' });
  });

  it('signs in with the verified primary e-mail, linking the GitHub account', async () => {
    const res = await signIn(server, 'github');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ tokenType: 'Bearer', expiresIn: 31_536_000 });
    const rows = await publisherRows(server);
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ email: 'octocat@example.com', verified: false, oauth_provider: 'github', oauth_subject: '583231' });
    expect((jwt.decode(res.body.accessToken) as jwt.JwtPayload).sub).to.equal(String(rows[0]!.id));
  });

  it('403 when the primary e-mail is not verified', async () => {
    github.emails = [{ email: 'fresh@example.com', primary: true, verified: false }];
    const res = await signIn(server, 'github');
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal('github has no verified primary e-mail address for this account');
  });

  it('400 when GitHub refuses the code (a replayed or forged code)', async () => {
    const res = await signIn(server, 'github', (callback, cookie) => {
      callback.searchParams.set('code', 'code-that-was-never-issued');
      return { callback, cookie };
    });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('sign-in was refused by github: the code is invalid or expired');
  });

  it('503 when the GitHub API fails', async () => {
    github.apiFailure = 502;
    const res = await signIn(server, 'github');
    expect(res.status).to.equal(503);
    expect(res.body.message).to.equal('the sign-in provider github failed: /user answered 502');
  });

  it('400 for a cookie of another provider’s sign-in', async () => {
    const login = await fetch(`${server.url}/auth/github/login`, { redirect: 'manual' });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const state = new URL(login.headers.get('location')!).searchParams.get('state');
    const res = await fetch(`${server.url}/auth/google/callback?code=x&state=${state}`, { headers: { cookie } });
    expect(res.status).to.equal(400);
    expect((await res.json()).message).to.match(/no sign-in in progress/);
  });
});
