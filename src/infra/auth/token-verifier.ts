import { createPublicKey } from 'node:crypto';
import jwt, { type Algorithm, type JwtHeader } from 'jsonwebtoken';
import jwksRsa from 'jwks-rsa';
import type { Principal } from '../../domain/access/principal.js';
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

type KeyResolver = (header: JwtHeader) => Promise<{ key: string; algorithms: Algorithm[] }>;

function pemResolver(pem: string): KeyResolver {
  const algorithms = algorithmFor(createPublicKey(pem).asymmetricKeyType);
  return async () => ({ key: pem, algorithms });
}

function jwksResolver(jwksUri: string): KeyResolver {
  // Cached keys, and at most 10 fetches a minute: unknown kids cannot flood the auth service.
  const client = jwksRsa({ jwksUri, cache: true, cacheMaxEntries: 20, cacheMaxAge: 10 * 60_000, rateLimit: true, jwksRequestsPerMinute: 10, timeout: 5_000 });
  return async (header) => {
    if (!header.kid) throw new AuthenticationError('token has no kid');
    const signingKey = await client.getSigningKey(header.kid);
    const key = signingKey.getPublicKey();
    return { key, algorithms: algorithmFor(createPublicKey(key).asymmetricKeyType) };
  };
}

/** Verifies signature (pinned algorithms), exp (required), iss/aud when configured, then the claims. */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const resolve = /^https?:\/\//.test(options.keySource) ? jwksResolver(options.keySource) : pemResolver(options.keySource);
  return async (token) => {
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload === 'string') throw new AuthenticationError('malformed token');
    let key: { key: string; algorithms: Algorithm[] };
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
    return principalFromClaims(claims, options.rolesClaim, options.groupsClaim);
  };
}
