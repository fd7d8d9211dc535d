import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** The platform auth service of the tests: one RSA key pair per run. */
export const platformKey = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

export type TokenClaims = {
  level?: 'LV1' | 'LV2' | 'LV3' | 'LV4' | 'LV5';
  workspace?: string | null;
  sub?: string;
  groups?: string[];
  email?: string;
  [claim: string]: unknown;
};

/** A platform token as the auth service would issue it, signed with the test key. */
export function mintToken(
  { level = 'LV2', workspace, sub = 'user-1', groups = [], ...rest }: TokenClaims = {},
  options: { expiresIn?: number; privateKey?: string; algorithm?: jwt.Algorithm; keyid?: string } = {},
): string {
  const claims: Record<string, unknown> = { sub, roles: [level], groups, ...rest };
  if (workspace) claims.workspace = workspace;
  return jwt.sign(claims, options.privateKey ?? platformKey.privateKey, {
    algorithm: options.algorithm ?? 'RS256',
    expiresIn: options.expiresIn ?? 3600,
    ...(options.keyid ? { keyid: options.keyid } : {}),
  });
}
