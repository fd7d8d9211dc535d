import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/infra/config.js';
import { publisherTokenSecretFor } from '../../../src/infra/publishing/publisher-token-secret.js';

describe('the publisher token secret', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'publisher-secret-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('is PUBLISHER_TOKEN_SECRET when set', () => {
    const secret = 's'.repeat(32);
    expect(publisherTokenSecretFor(loadConfig({ DATA_DIR: dataDir, PUBLISHER_TOKEN_SECRET: secret }))).to.equal(secret);
  });

  it('is generated once into DATA_DIR in development, private to the owner', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = publisherTokenSecretFor(config);
    expect(first).to.be.a('string').with.length.above(40);
    expect(publisherTokenSecretFor(config)).to.equal(first);
    const file = path.join(dataDir, 'dev-keys', 'publisher-token-secret');
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
  });

  it('is absent in production without the variable: publishing is off, nothing is generated', () => {
    expect(publisherTokenSecretFor(loadConfig({ DATA_DIR: dataDir, APP_ENV: 'production', PLATFORM_AUTH_ENDPOINT: 'https://auth.example.com/jwks' }))).to.equal(null);
    expect(fs.existsSync(path.join(dataDir, 'dev-keys'))).to.equal(false);
  });

  it('refuses to start with a secret shorter than 32 bytes', () => {
    expect(() => loadConfig({ PUBLISHER_TOKEN_SECRET: 'short' })).to.throw(ConfigError, /at least 32 bytes/);
  });
});

describe('sign-in provider settings', () => {
  it('turns a provider on with its client id and secret, with the public endpoints by default', () => {
    const { oauth } = loadConfig({ GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'gs', GITHUB_CLIENT_ID: 'h', GITHUB_CLIENT_SECRET: 'hs' });
    expect(oauth.google).to.deep.equal({ clientId: 'g', clientSecret: 'gs', issuer: 'https://accounts.google.com' });
    expect(oauth.github).to.deep.equal({
      clientId: 'h',
      clientSecret: 'hs',
      authorizeUrl: 'https://github.com/login/oauth/authorize',
      tokenUrl: 'https://github.com/login/oauth/access_token',
      apiUrl: 'https://api.github.com',
    });
    expect(oauth.oidc).to.equal(undefined);
  });

  it('leaves every provider off by default', () => {
    expect(loadConfig({}).oauth).to.deep.equal({ redirectBaseUrl: undefined, google: undefined, github: undefined, oidc: undefined });
  });

  it('refuses half a client, an OIDC client without issuer, and a URL that is not http(s)', () => {
    expect(() => loadConfig({ GITHUB_CLIENT_ID: 'h' })).to.throw(ConfigError, /GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET/);
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'o', OIDC_CLIENT_SECRET: 'os' })).to.throw(ConfigError, /OIDC_ISSUER/);
    expect(() => loadConfig({ OAUTH_REDIRECT_BASE_URL: 'apps.example.com' })).to.throw(ConfigError, /OAUTH_REDIRECT_BASE_URL/);
  });
});
