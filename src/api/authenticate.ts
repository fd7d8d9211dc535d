import type { Request, RequestHandler, Response } from 'express';
import type { Principal } from '../domain/access/principal.js';
import { AuthenticationError } from '../infra/auth/principal-from-claims.js';
import type { TokenVerifier } from '../infra/auth/token-verifier.js';

/** The bearer token of the Authorization header (401 without one). */
export function bearerTokenOf(req: Request, missing = 'missing bearer token'): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match?.[1]) throw new AuthenticationError(missing);
  return match[1];
}

/** Verifies the bearer token and keeps the caller in res.locals.principal. */
export function authenticate(verify: TokenVerifier): RequestHandler {
  return async (req, res, next) => {
    res.locals.principal = await verify(bearerTokenOf(req));
    next();
  };
}

export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (!principal) throw new AuthenticationError('missing bearer token');
  return principal;
}
