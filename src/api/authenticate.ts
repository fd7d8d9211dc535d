import type { RequestHandler, Response } from 'express';
import type { Principal } from '../domain/access/principal.js';
import { AuthenticationError } from '../infra/auth/principal-from-claims.js';
import type { TokenVerifier } from '../infra/auth/token-verifier.js';

/** Verifies the bearer token and keeps the caller in res.locals.principal. */
export function authenticate(verify: TokenVerifier): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match?.[1]) throw new AuthenticationError('missing bearer token');
    res.locals.principal = await verify(match[1]);
    next();
  };
}

export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (!principal) throw new AuthenticationError('missing bearer token');
  return principal;
}
