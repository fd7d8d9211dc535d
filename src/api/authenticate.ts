import type { Request, RequestHandler, Response } from 'express';
import type { Principal } from '../domain/access/principal.js';
import { feedOpens } from '../domain/calendar/calendar-feed.js';
import { AuthenticationError } from '../infra/auth/principal-from-claims.js';
import { feedTokenHash } from '../infra/auth/feed-token.js';
import type { TokenVerifier } from '../infra/auth/token-verifier.js';
import type { Executor } from '../infra/db/database.js';
import { findLiveCalendarFeed } from '../infra/calendar/calendar-feeds.js';

/** The bearer token of the Authorization header (401 without one; Basic, a calendar password, opens only /dav/: contract §25). */
export function bearerTokenOf(req: Request, missing = 'missing bearer token'): string {
  const authorization = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (/^Basic(\s|$)/i.test(authorization)) throw new AuthenticationError('a calendar password (HTTP Basic) works only under /dav/; send a bearer token');
  if (!match?.[1]) throw new AuthenticationError(missing);
  return match[1];
}

/** The two feed URLs (contract §18): the only routes a feed token opens, and only to read. */
const resourceFeedPath = /^\/booking\/v1\/resources\/([^/]+)\/calendar\.ics$/;
const bookerFeedPath = /^\/booking\/v1\/bookings\/calendar\.ics$/;

type FeedUrl = { kind: 'resource'; bookableResourceId: string } | { kind: 'booker' };

function feedUrlOf(path: string): FeedUrl | undefined {
  const resource = resourceFeedPath.exec(path);
  if (resource) return { kind: 'resource', bookableResourceId: resource[1]! };
  return bookerFeedPath.test(path) ? { kind: 'booker' } : undefined;
}

/** The hash of the feed token in `?token=`, undefined without one; 401 for one that cannot be a feed token (empty, repeated, wrong shape). */
function feedTokenOf(req: Request): string | undefined {
  if (!Object.hasOwn(req.query, 'token')) return undefined;
  const token = req.query.token;
  const hash = typeof token === 'string' ? feedTokenHash(token) : null;
  if (!hash) throw new AuthenticationError('malformed feed token');
  return hash;
}

/**
 * A `token` query parameter anywhere but a GET of a feed URL answers 401 before anything else
 * reads the request: a feed token is read-only and opens only its feed. (As a bearer it is no
 * JWT, so every route already refuses it.) On a feed URL, a token that cannot be one is 401 too,
 * rather than a schema error.
 */
export const refuseFeedTokenElsewhere: RequestHandler = (req, _res, next) => {
  if (!req.path.startsWith('/booking/v1/') || !Object.hasOwn(req.query, 'token')) return next();
  if (!(req.method === 'GET' || req.method === 'HEAD') || !feedUrlOf(req.path)) {
    throw new AuthenticationError('a feed token only reads its calendar feed');
  }
  feedTokenOf(req);
  next();
};

/**
 * Verifies the caller and keeps it in res.locals.principal: the bearer token, or (with `feeds`)
 * on a feed URL the feed token of `?token=` (contract §18), which reads as its creator and only at
 * the URL it was made for; its hash is kept in res.locals.feedToken, the client the rate limit
 * counts. A malformed, unknown or revoked feed token is 401 whatever the Authorization header says.
 */
export function authenticate(verify: TokenVerifier, feeds?: { db: Executor }): RequestHandler {
  return async (req, res, next) => {
    const url = feeds && feedUrlOf(req.originalUrl.split('?')[0]!);
    const feedToken = url && feedTokenOf(req);
    if (!feeds || !url || !feedToken) {
      res.locals.principal = await verify(bearerTokenOf(req, url ? 'missing bearer token or feed token' : undefined));
      return next();
    }
    const feed = await findLiveCalendarFeed(feeds.db, feedToken);
    if (!feed) throw new AuthenticationError('unknown or revoked feed token');
    if (!feedOpens(feed, url)) throw new AuthenticationError('this feed token opens another feed');
    res.locals.principal = feed.owner;
    res.locals.feedToken = feedToken;
    next();
  };
}

export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (!principal) throw new AuthenticationError('missing bearer token');
  return principal;
}

/** The hash of the feed token the caller came with (authenticate), undefined for a bearer. */
export const feedTokenOfCaller = (res: Response): string | undefined => res.locals.feedToken as string | undefined;
