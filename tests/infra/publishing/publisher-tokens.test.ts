import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { AuthenticationError } from '../../../src/infra/auth/principal-from-claims.js';
import { createPublisherTokens, publisherTokenLifetimeSeconds } from '../../../src/infra/publishing/publisher-tokens.js';

const secret = 'a-publisher-token-secret-for-tests-0123456789';
const tokens = createPublisherTokens(secret, 'roles');
const now = () => Math.floor(Date.now() / 1000);

describe('publisher tokens', () => {
  it('carry sub = publisher id, email, LV4 and one year of life, signed HS256', () => {
    const token = tokens.sign({ id: 42, email: 'ada@example.com' });
    const { header, payload } = jwt.decode(token, { complete: true }) as jwt.Jwt & { payload: jwt.JwtPayload };
    expect(header.alg).to.equal('HS256');
    expect(payload).to.include({ sub: '42', email: 'ada@example.com', aud: 'publishing' });
    expect(payload.roles).to.deep.equal(['LV4']);
    expect(payload.exp! - payload.iat!).to.equal(publisherTokenLifetimeSeconds).and.to.equal(31_536_000);
    expect(tokens.verify(token)).to.deep.equal({ publisherId: 42, email: 'ada@example.com' });
  });

  it('put the level in the configured roles claim', () => {
    const custom = createPublisherTokens(secret, 'https://example.com/roles');
    const payload = jwt.decode(custom.sign({ id: 1, email: 'a@example.com' })) as jwt.JwtPayload;
    expect(payload['https://example.com/roles']).to.deep.equal(['LV4']);
    expect(() => tokens.verify(custom.sign({ id: 1, email: 'a@example.com' }))).to.throw(AuthenticationError, /LV4/);
  });

  const claims = { sub: '42', email: 'ada@example.com', roles: ['LV4'], aud: 'publishing' };
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const refused: [string, () => string][] = [
    ['an RS256 token, even with the right claims', () => jwt.sign(claims, privateKey, { algorithm: 'RS256', expiresIn: 60 })],
    ['an unsigned token', () => jwt.sign({ ...claims, exp: now() + 60 }, '', { algorithm: 'none' })],
    ['another secret', () => jwt.sign(claims, 'another-secret-of-at-least-32-bytes-long', { algorithm: 'HS256', expiresIn: 60 })],
    ['HS512 with the right secret', () => jwt.sign(claims, secret, { algorithm: 'HS512', expiresIn: 60 })],
    ['no exp', () => jwt.sign(claims, secret, { algorithm: 'HS256' })],
    ['an expired token', () => jwt.sign({ ...claims, exp: now() - 60 }, secret, { algorithm: 'HS256' })],
    ['another audience', () => jwt.sign({ ...claims, aud: 'booking' }, secret, { algorithm: 'HS256', expiresIn: 60 })],
    ['no audience', () => jwt.sign({ sub: '42', email: 'a@example.com', roles: ['LV4'] }, secret, { algorithm: 'HS256', expiresIn: 60 })],
    ['a sub that is no publisher id', () => jwt.sign({ ...claims, sub: 'user-1' }, secret, { algorithm: 'HS256', expiresIn: 60 })],
    ['no email', () => jwt.sign({ ...claims, email: undefined }, secret, { algorithm: 'HS256', expiresIn: 60 })],
    ['level LV5', () => jwt.sign({ ...claims, roles: ['LV5'] }, secret, { algorithm: 'HS256', expiresIn: 60 })],
    ['no level', () => jwt.sign({ ...claims, roles: [] }, secret, { algorithm: 'HS256', expiresIn: 60 })],
    ['garbage', () => 'not.a.token'],
  ];
  for (const [name, token] of refused) {
    it(`refuses ${name}`, () => {
      expect(() => tokens.verify(token())).to.throw(AuthenticationError);
    });
  }

  it('accept a better level than LV4 (spec: LV4 or better)', () => {
    const lv1 = jwt.sign({ ...claims, roles: 'LV1' }, secret, { algorithm: 'HS256', expiresIn: 60 });
    expect(tokens.verify(lv1).publisherId).to.equal(42);
  });
});
