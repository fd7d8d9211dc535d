import type { RequestHandler, Response } from 'express';
import { bucketKeyOf, policyNameOf, rateLimitHeaders, type RateLimitedClient } from '../domain/request/rate-limit.js';
import { createTokenSource } from '../infra/rate-limit/token-batches.js';
import type { Services } from '../services.js';
import { feedTokenOfCaller, principalOf } from './authenticate.js';
import { calendarPasswordOfCaller } from './dav/dav-caller.js';

/** The client as authentication left it: a feed token or a calendar password on its own, else the token's subject. */
function clientOf(res: Response): RateLimitedClient {
  const feedToken = feedTokenOfCaller(res);
  if (feedToken) return { kind: 'feed-token', id: feedToken };
  const username = calendarPasswordOfCaller(res);
  return username ? { kind: 'calendar-password', username } : { kind: 'sub', sub: principalOf(res).sub };
}

/**
 * RATE_LIMIT_PER_MINUTE per client (contract §18), counted in PostgreSQL by every process and node
 * alike: one statement, before any other database work of the request. Mounted after
 * authentication, on the routes that need a token (health, metrics and docs do not).
 */
export function limitRate(services: Pick<Services, 'config' | 'db'>): RequestHandler {
  const perMinute = services.config.rateLimitPerMinute;
  if (perMinute === 0) return (_req, _res, next) => next();
  const takeToken = createTokenSource(services.db, perMinute);
  return async (_req, res, next) => {
    const client = clientOf(res);
    const bucket = await takeToken(bucketKeyOf(client));
    const headers = rateLimitHeaders({ name: policyNameOf(client), perMinute }, bucket);
    res.set('RateLimit-Policy', headers.policy);
    res.set('RateLimit', headers.limit);
    if (headers.retryAfterSeconds === null) {
      next();
      return;
    }
    res.set('Retry-After', String(headers.retryAfterSeconds));
    res.status(429).json({ statusCode: 429, message: `over the limit of ${perMinute} requests per minute; retry after ${headers.retryAfterSeconds} s` });
  };
}
