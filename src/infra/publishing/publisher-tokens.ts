import jwt from 'jsonwebtoken';
import type { PublisherPrincipal } from '../../domain/publishing/publisher-principal.js';
import { AuthenticationError } from '../auth/principal-from-claims.js';

/** Spec 2.3: a publisher token lives a year. */
export const publisherTokenLifetimeSeconds = 365 * 24 * 60 * 60;

// Publisher tokens name this audience, so they can never pass for a token of another purpose.
const audience = 'publishing';

export type PublisherTokens = {
  sign(publisher: { id: number; email: string }): string;
  /** Accepts only HS256 with this secret, exp and the audience present, and level LV4 or better. */
  verify(token: string): PublisherPrincipal;
};

const levelPattern = /^LV([1-5])$/;

/** The best (lowest) n of the LVn values in a string or array claim; Infinity when there is none. */
function bestLevel(claim: unknown): number {
  const levels = (Array.isArray(claim) ? claim : [claim]).map((value) => (typeof value === 'string' ? Number(levelPattern.exec(value)?.[1]) : NaN));
  return Math.min(Infinity, ...levels.filter((level) => !Number.isNaN(level)));
}

export function createPublisherTokens(secret: string, rolesClaim: string): PublisherTokens {
  return {
    sign: (publisher) =>
      jwt.sign({ email: publisher.email, [rolesClaim]: ['LV4'] }, secret, {
        algorithm: 'HS256',
        subject: String(publisher.id),
        audience,
        expiresIn: publisherTokenLifetimeSeconds,
      }),
    verify(token) {
      let claims: jwt.JwtPayload;
      try {
        claims = jwt.verify(token, secret, { algorithms: ['HS256'], audience }) as jwt.JwtPayload;
      } catch (error) {
        throw new AuthenticationError(error instanceof Error ? error.message : 'invalid token');
      }
      if (typeof claims.exp !== 'number') throw new AuthenticationError('token has no exp');
      if (typeof claims.sub !== 'string' || !/^[1-9]\d{0,9}$/.test(claims.sub)) throw new AuthenticationError('token has no publisher id');
      if (typeof claims.email !== 'string') throw new AuthenticationError('token has no email');
      if (bestLevel(claims[rolesClaim]) > 4) throw new AuthenticationError('publishing needs level LV4 or better');
      return { publisherId: Number(claims.sub), email: claims.email };
    },
  };
}
