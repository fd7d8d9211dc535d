import type { RequestHandler } from 'express';
import { AuthenticationError } from '../../infra/auth/principal-from-claims.js';
import type { Services } from '../../services.js';
import { bearerTokenOf } from '../authenticate.js';

/** The challenges of a 401 under /dav/ (contract §25): calendar clients answer the Basic one. */
export const davChallenges = ['Basic realm="workspace-booking"', 'Bearer'];

/**
 * Signs the caller in under /dav/: the platform token as Bearer. Sets res.locals.principal (as
 * REST's authenticate does) and res.locals.davUser, the caller's principal path segment (the
 * token's sub). Missing or wrong credentials → 401 with both challenges.
 */
export function davAuthentication(services: Services): RequestHandler {
  return async (req, res, next) => {
    try {
      const principal = await services.verifyToken(bearerTokenOf(req, 'missing credentials: a Bearer token'));
      res.locals.principal = principal;
      res.locals.davUser = principal.sub;
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      res.status(401).set('WWW-Authenticate', davChallenges).json({ statusCode: 401, message: `unauthorized: ${error.message}` });
      return;
    }
    next();
  };
}
