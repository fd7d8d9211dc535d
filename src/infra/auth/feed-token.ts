import { createHash, randomBytes } from 'node:crypto';

/** Recognisable in logs and secret scanners: a feed token is never a JWT. */
export const feedTokenPrefix = 'wbcal_';

/** The prefix and 32 random bytes in base64url (43 characters, no padding). */
const feedTokenPattern = /^wbcal_[A-Za-z0-9_-]{43}$/;

/** The stored form: SHA-256 of the whole token, hex. The token itself is shown once, at creation. */
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export function newFeedToken(): { token: string; hash: string } {
  const token = `${feedTokenPrefix}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashOf(token) };
}

/** The hash to look a token up by, or null when it cannot be a feed token. */
export function feedTokenHash(token: string): string | null {
  return feedTokenPattern.test(token) ? hashOf(token) : null;
}
