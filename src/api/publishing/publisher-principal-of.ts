import type { Request } from 'express';
import type { PublisherPrincipal } from '../../domain/publishing/publisher-principal.js';
import { AuthenticationError } from '../../infra/auth/principal-from-claims.js';
import type { PublisherTokens } from '../../infra/publishing/publisher-tokens.js';

/** The publisher token of the request (HS256 only; a platform token is refused here as anywhere else it does not belong). */
export function publisherPrincipalOf(req: Request, tokens: PublisherTokens): PublisherPrincipal {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) throw new AuthenticationError('missing bearer token');
  return tokens.verify(match[1]);
}
