import type { RequestHandler, Response } from 'express';
import { calendarPasswordSignIn } from '../../infra/auth/calendar-password-sign-in.js';
import { AuthenticationError } from '../../infra/auth/principal-from-claims.js';
import type { Services } from '../../services.js';
import { bearerTokenOf } from '../authenticate.js';
import { basicCredentialsOf } from './basic-credentials.js';

/** Both ways in, offered on every 401 (contract §25): calendar clients pick Basic. */
const challenges = ['Basic realm="workspace-booking"', 'Bearer'];

function refuse(res: Response, reason: string): void {
  res.status(401).set('WWW-Authenticate', challenges).json({ statusCode: 401, message: `unauthorized: ${reason}` });
}

/**
 * Authentication of everything under /dav/ (contract §25): the platform token as a bearer,
 * verified as REST verifies it, or HTTP Basic with a calendar password, which acts as its creator.
 * Sets res.locals.principal (as authenticate does), res.locals.davUser (the password's username,
 * else the token's `sub`) and, for a password, res.locals.calendarPassword (its username: the
 * client §18's limit counts). Mounted before any body parser: a refused request's body is never read.
 */
export function davAuthentication(services: Services): RequestHandler {
  const signIn = calendarPasswordSignIn(services);
  return async (req, res, next) => {
    const authorization = req.headers.authorization;
    const basic = basicCredentialsOf(authorization);
    if (basic === undefined) {
      if (!authorization) return refuse(res, 'a bearer token or a calendar password (HTTP Basic) is needed');
      try {
        const principal = await services.verifyToken(bearerTokenOf(req, 'a bearer token or a calendar password (HTTP Basic) is needed'));
        res.locals.principal = principal;
        res.locals.davUser = principal.sub;
      } catch (error) {
        if (error instanceof AuthenticationError) return refuse(res, error.message);
        throw error;
      }
      return next();
    }
    if (basic === null) return refuse(res, 'malformed Basic credentials');
    const verdict = await signIn(basic.username, basic.password);
    switch (verdict.kind) {
      case 'refused':
        return refuse(res, verdict.reason);
      case 'too-many-checks':
        res.status(429).set('Retry-After', String(verdict.retryAfterSeconds)).json({
          statusCode: 429,
          message: `too many password checks for this username; retry after ${verdict.retryAfterSeconds} s`,
        });
        return;
      case 'signed-in':
        res.locals.principal = verdict.password.owner;
        res.locals.davUser = verdict.password.username;
        res.locals.calendarPassword = verdict.password.username;
        return next();
    }
  };
}
