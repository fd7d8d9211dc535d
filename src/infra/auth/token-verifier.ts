import { createPublicKey, type KeyObject } from 'node:crypto';
import jwt, { type Algorithm, type JwtHeader } from 'jsonwebtoken';
import jwksRsa from 'jwks-rsa';
import type { Principal } from '../../domain/access/principal.js';
import { boundedCache } from '../cache/bounded-cache.js';
import { AuthenticationError, principalFromClaims } from './principal-from-claims.js';

export type TokenVerifierOptions = {
  /** A JWKS URL, or a PEM public key. */
  keySource: string;
  issuer?: string;
  audience?: string;
  rolesClaim: string;
  groupsClaim: string;
};

export type TokenVerifier = (token: string) => Promise<Principal>;

const algorithmFor = (keyType: string | undefined): Algorithm[] => (keyType === 'ec' ? ['ES256'] : ['RS256']);

type KeyResolver = (header: JwtHeader) => Promise<{ key: KeyObject; algorithms: Algorithm[] }>;

function pemResolver(pem: string): KeyResolver {
  // Parsed once: parsing the PEM on every request was the largest cost of a request.
  const key = createPublicKey(pem);
  const algorithms = algorithmFor(key.asymmetricKeyType);
  return async () => ({ key, algorithms });
}

function jwksResolver(jwksUri: string): KeyResolver {
  // Cached keys, and at most 10 fetches a minute: unknown kids cannot flood the auth service.
  const client = jwksRsa({ jwksUri, cache: true, cacheMaxEntries: 20, cacheMaxAge: 10 * 60_000, rateLimit: true, jwksRequestsPerMinute: 10, timeout: 5_000 });
  return async (header) => {
    if (!header.kid) throw new AuthenticationError('token has no kid');
    const signingKey = await client.getSigningKey(header.kid);
    const key = createPublicKey(signingKey.getPublicKey());
    return { key, algorithms: algorithmFor(key.asymmetricKeyType) };
  };
}

const maxCachedMs = 5 * 60_000;

/**
 * Verifies signature (pinned algorithms), exp (required), iss/aud when configured, then the claims.
 * A verified token is remembered until it expires (at most five minutes): a client sends the same
 * token with every request, and only that exact string, signature included, can hit the cache.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const resolve = /^https?:\/\//.test(options.keySource) ? jwksResolver(options.keySource) : pemResolver(options.keySource);
  const verified = boundedCache<string, Principal>('verified-tokens', { maxEntries: 10_000 });
  return async (token) => {
    const cached = verified.get(token);
    if (cached) return cached;
    const { principal, expiresAtMs } = await verifyToken(token);
    const ttl = Math.min(maxCachedMs, expiresAtMs - Date.now());
    // A ttl of 0 would mean "forever" to the cache: a token about to expire is simply not kept.
    if (ttl >= 1) verified.set(token, principal, { ttlMs: ttl });
    return principal;
  };

  async function verifyToken(token: string): Promise<{ principal: Principal; expiresAtMs: number }> {
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload === 'string') throw new AuthenticationError('malformed token');
    let key: { key: KeyObject; algorithms: Algorithm[] };
    try {
      key = await resolve(decoded.header);
    } catch (error) {
      throw new AuthenticationError(error instanceof AuthenticationError ? error.message : 'no key to verify the token');
    }
    let claims: jwt.JwtPayload;
    try {
      claims = jwt.verify(token, key.key, {
        algorithms: key.algorithms,
        issuer: options.issuer,
        audience: options.audience,
        complete: false,
      }) as jwt.JwtPayload;
    } catch (error) {
      throw new AuthenticationError(error instanceof Error ? error.message : 'invalid token');
    }
    if (typeof claims.exp !== 'number') throw new AuthenticationError('token has no exp');
    return { principal: principalFromClaims(claims, options.rolesClaim, options.groupsClaim), expiresAtMs: claims.exp * 1000 };
  }
}
