import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { ConfigError, loadConfig } from '../../src/infra/config.js';
import { startJwksServer, type JwksServer } from '../support/jwks-server.js';
import { mintToken, platformKey } from '../support/test-keys.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const path = '/booking/v1/resources';

describe('authentication with a PEM platform key', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ AUTH_ISSUER: 'https://auth.test', AUTH_AUDIENCE: 'booking' });
  });
  after(() => server.stop());

  const good = () => server.token({ iss: 'https://auth.test', aud: 'booking' });

  it('accepts a valid token', async () => {
    expect((await server.request('GET', path, { token: good() })).status).to.equal(200);
  });

  const refused: [string, () => string | null, Record<string, string>?][] = [
    ['a missing token', () => null],
    ['garbage', () => 'not-a-jwt'],
    ['a non-bearer scheme', () => null, { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an expired token', () => mintToken({ workspace: server.workspace, iss: 'https://auth.test', aud: 'booking' }, { expiresIn: -60 })],
    [
      'an unsigned token (alg none)',
      () => jwt.sign({ sub: 'x', roles: ['LV1'], iss: 'https://auth.test', aud: 'booking', exp: Math.floor(Date.now() / 1000) + 60 }, '', { algorithm: 'none' }),
    ],
    [
      'a token signed by an unknown key',
      () => {
        const other = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
        return mintToken({ workspace: server.workspace, iss: 'https://auth.test', aud: 'booking' }, { privateKey: other.privateKey });
      },
    ],
    [
      'an HS256 token keyed with the RSA public key',
      () => jwt.sign({ sub: 'x', roles: ['LV1'], workspace: server.workspace, iss: 'https://auth.test', aud: 'booking' }, platformKey.publicKey, { algorithm: 'HS256', expiresIn: 60 }),
    ],
    [
      'a token without exp',
      () => jwt.sign({ sub: 'x', roles: ['LV2'], workspace: server.workspace, iss: 'https://auth.test', aud: 'booking' }, platformKey.privateKey, { algorithm: 'RS256', noTimestamp: true }),
    ],
    ['a wrong issuer', () => server.token({ iss: 'https://evil.test', aud: 'booking' })],
    ['a wrong audience', () => server.token({ iss: 'https://auth.test', aud: 'other' })],
    ['a token without a level', () => jwt.sign({ sub: 'x', workspace: server.workspace, iss: 'https://auth.test', aud: 'booking' }, platformKey.privateKey, { algorithm: 'RS256', expiresIn: 60 })],
    ['a token without a workspace below LV1', () => mintToken({ level: 'LV2', iss: 'https://auth.test', aud: 'booking' })],
  ];
  for (const [name, token, headers] of refused) {
    it(`answers 401 to ${name}`, async () => {
      const res = await server.request('GET', path, { token: token(), headers });
      expect(res.status).to.equal(401);
      expect(res.body.statusCode).to.equal(401);
      expect(res.body.message).to.be.a('string');
    });
  }
});

describe('authentication with a JWKS endpoint', () => {
  let jwks: JwksServer;
  let server: TestServer;
  before(async () => {
    jwks = await startJwksServer();
    server = await startTestServer({ PLATFORM_AUTH_ENDPOINT: jwks.url });
  });
  after(async () => {
    await server.stop();
    await jwks.close();
  });

  it('accepts a token signed by a key of the set, fetching the set once', async () => {
    const token = mintToken({ workspace: server.workspace }, { privateKey: jwks.privateKey, keyid: jwks.kid });
    for (let i = 0; i < 5; i++) expect((await server.request('GET', path, { token })).status).to.equal(200);
    expect(jwks.hits()).to.equal(1);
  });

  it('answers 401 to unknown kids without a flood of key-set fetches', async () => {
    const before = jwks.hits();
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        server.request('GET', path, { token: mintToken({ workspace: server.workspace }, { privateKey: jwks.privateKey, keyid: `unknown-${i}` }) }),
      ),
    );
    expect(statuses.every((r) => r.status === 401)).to.equal(true);
    expect(jwks.hits() - before).to.be.at.most(10);
  });
});

describe('start-up without a key source', () => {
  it('refuses production mode without PLATFORM_AUTH_ENDPOINT', () => {
    expect(() => loadConfig({ APP_ENV: 'production' })).to.throw(ConfigError, /PLATFORM_AUTH_ENDPOINT/);
  });

  it('exits with a clear message when started that way', function () {
    this.timeout(60_000);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH, APP_ENV: 'production', PORT: '0' },
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(run.status).to.equal(1);
    expect(run.stdout + run.stderr).to.match(/PLATFORM_AUTH_ENDPOINT/);
  });
});
