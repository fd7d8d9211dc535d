import jwt from 'jsonwebtoken';
import { ensureDevSigningKey } from '../src/infra/auth/dev-signing-key.js';
import type { Config } from '../src/infra/config.js';
import { createPublisherTokens } from '../src/infra/publishing/publisher-tokens.js';
import { publisherTokenSecretFor } from '../src/infra/publishing/publisher-token-secret.js';

export type DevTokenClaims = { level: string; workspace?: string; sub: string; email?: string; groups?: string[]; expiresIn?: string };

/** A platform token signed with the development key in DATA_DIR (what a development service trusts). */
export function mintDevToken(config: Config, claims: DevTokenClaims): string {
  const key = ensureDevSigningKey(config.dataDir);
  const payload: Record<string, unknown> = {
    sub: claims.sub,
    [config.auth.rolesClaim]: [claims.level],
    [config.auth.groupsClaim]: claims.groups ?? [],
  };
  if (claims.workspace) payload.workspace = claims.workspace;
  if (claims.email) payload.email = claims.email;
  return jwt.sign(payload, key.privateKeyPem, {
    algorithm: 'RS256',
    keyid: key.kid,
    expiresIn: (claims.expiresIn ?? '12h') as jwt.SignOptions['expiresIn'],
  });
}

/** A publisher token (HS256, one year) for /publish/*, as sign-in would issue it. */
export function mintPublisherToken(config: Config, publisher: { id: number; email: string }): string {
  return createPublisherTokens(publisherTokenSecretFor(config)!, config.auth.rolesClaim).sign(publisher);
}
