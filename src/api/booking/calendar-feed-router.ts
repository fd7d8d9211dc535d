import { createHash } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { Temporal } from 'temporal-polyfill';
import { canSeeWorkspace, isAdmin, type Principal } from '../../domain/access/principal.js';
import { calendarEntryOf } from '../../domain/calendar/calendar-entry.js';
import { feedOpens, feedWindow } from '../../domain/calendar/calendar-feed.js';
import { notFound } from '../../domain/domain-error.js';
import type { RateLimitedClient } from '../../domain/request/rate-limit.js';
import { AuthenticationError } from '../../infra/auth/principal-from-claims.js';
import { feedTokenHash } from '../../infra/auth/feed-token.js';
import { boundedCache } from '../../infra/cache/bounded-cache.js';
import type { Executor } from '../../infra/db/database.js';
import { findFeedBookings, findFeedVersion, type FeedSelection } from '../../projections/calendar/calendar-feed-bookings.js';
import { findCalendarResource } from '../../projections/calendar/calendar-resource.js';
import { findLiveCalendarFeed } from '../../infra/calendar/calendar-feeds.js';
import type { Services } from '../../services.js';
import { bearerTokenOf } from '../authenticate.js';
import { matchesTag } from '../entity-tag.js';
import { limitRate } from '../rate-limit.js';
import { calendarText } from './calendar-ics.js';

/** The two feed URLs: the only routes a feed token opens, and only to read. */
const feedPaths = [/^\/booking\/v1\/resources\/[^/]+\/calendar\.ics$/, /^\/booking\/v1\/bookings\/calendar\.ics$/];

/**
 * A `token` query parameter anywhere but a GET of a feed URL answers 401 before anything else
 * reads the request: a feed token is read-only and opens only its feed. (As a bearer it is no
 * JWT, so every route already refuses it.) On a feed URL, a token that cannot be one (empty,
 * repeated, wrong shape) is 401 too, rather than a schema error.
 */
export const refuseFeedTokenElsewhere: RequestHandler = (req, _res, next) => {
  if (!req.path.startsWith('/booking/v1/') || !Object.hasOwn(req.query, 'token')) return next();
  if (!(req.method === 'GET' || req.method === 'HEAD') || !feedPaths.some((path) => path.test(req.path))) {
    throw new AuthenticationError('a feed token only reads its calendar feed');
  }
  const token = req.query.token;
  if (typeof token !== 'string' || feedTokenHash(token) === null) throw new AuthenticationError('malformed feed token');
  next();
};

type FeedUrl = { kind: 'resource'; bookableResourceId: string } | { kind: 'booker' };

/**
 * Who reads: the creator of the feed token in `?token=` (only at the URL it was made for), else
 * the bearer. A malformed, unknown or revoked token is 401 whatever the Authorization header says.
 */
async function readerOf(req: Request, services: Services, url: FeedUrl): Promise<Principal> {
  const token = req.query.token;
  if (token === undefined) {
    return services.verifyToken(bearerTokenOf(req, 'missing bearer token or feed token'));
  }
  const hash = typeof token === 'string' ? feedTokenHash(token) : null;
  if (!hash) throw new AuthenticationError('malformed feed token');
  const feed = await findLiveCalendarFeed(services.db, hash);
  if (!feed) throw new AuthenticationError('unknown or revoked feed token');
  if (!feedOpens(feed, url)) throw new AuthenticationError('this feed token opens another feed');
  return feed.owner;
}

/** Everything an answer is a function of besides its rows: equal keys and row versions are equal bytes. */
const answerKey = (reader: Principal, selection: FeedSelection, calendar: CalendarName) =>
  JSON.stringify([selection.kind, selection.kind === 'resource' ? selection.bookableResourceId : [selection.sub, selection.workspace], reader.level === 1 ? null : reader.workspace, isAdmin(reader) ? null : reader.sub, calendar.name, calendar.version]);

/** The calendar's name, with the version of the row it comes from (a rename is a new answer). */
type CalendarName = { name: string; version: string };

const entityTag = (key: string, version: { count: number; digest: string }) =>
  `"${createHash('sha1').update(`${key}|${version.count}|${version.digest}`).digest('base64url')}"`;

/** Rendered feeds by ETag: a feed read again unchanged (a second reader, a client without If-None-Match) is not rendered again. */
const rendered = boundedCache<string, Buffer>('calendar-feeds', { maxBytes: 32 * 2 ** 20, bytesOf: (body) => body.length + 64 });

/**
 * Versions of resource feeds already computed, by everything they are a function of: the answer's
 * key, the resource's stream revision (every write to the resource or its bookings moves it on)
 * and the minute the window is anchored to. A revalidation within the same minute and revision
 * then costs the resource's row, not the aggregate over its bookings. Per process: another node
 * computes its own, which is the same. (With PROJECTIONS=async the read model may trail the
 * revision for a moment; such a version stands until the minute turns.)
 */
const resourceFeedVersions = boundedCache<string, { count: number; digest: string }>('calendar-feed-versions', { maxEntries: 10_000 });

async function answerFeed(req: Request, res: Response, db: Executor, reader: Principal, selection: FeedSelection, calendar: CalendarName, streamRevision?: number): Promise<void> {
  const key = answerKey(reader, selection, calendar);
  const memoKey = streamRevision === undefined ? undefined : `${key}|${streamRevision}|${selection.window.from.epochMilliseconds}`;
  let version = memoKey === undefined ? undefined : resourceFeedVersions.get(memoKey);
  if (!version) {
    version = await findFeedVersion(db, selection);
    if (memoKey !== undefined) resourceFeedVersions.set(memoKey, version);
  }
  const current = entityTag(key, version);
  res.set({ 'Cache-Control': 'private, no-cache', 'Content-Type': 'text/calendar; charset=utf-8' });
  if (matchesTag(req.get('if-none-match'), current)) {
    res.set('ETag', current).status(304).end();
    return;
  }
  const cached = rendered.get(current);
  if (cached) {
    res.set('ETag', current).send(cached);
    return;
  }
  // The rows carry their own versions: the tag sent is the one of the rows rendered, even when a write came in between.
  const rows = await findFeedBookings(db, selection);
  const tag = entityTag(key, rows.version);
  const body = Buffer.from(calendarText(calendar.name, rows.bookings.map(({ booking, location }) => calendarEntryOf(booking, location, reader))));
  rendered.set(tag, body);
  res.set('ETag', tag).send(body);
}

/** The window anchored to the whole minute: a feed's rows change with the minute at most, so versions can be kept for one. */
const feedWindowAt = (now: Temporal.Instant) => feedWindow(Temporal.Instant.fromEpochMilliseconds(Math.floor(now.epochMilliseconds / 60_000) * 60_000));

/**
 * Whom a feed request counts against (contract §18): its feed token on its own, known by its hash
 * so that a client over its limit is refused before any database read, else the bearer's subject.
 */
async function feedClientOf(req: Request, services: Services): Promise<RateLimitedClient> {
  const token = req.query.token;
  if (token === undefined) {
    return { kind: 'sub', sub: (await services.verifyToken(bearerTokenOf(req, 'missing bearer token or feed token'))).sub };
  }
  const hash = typeof token === 'string' ? feedTokenHash(token) : null;
  if (!hash) throw new AuthenticationError('malformed feed token');
  return { kind: 'feed-token', id: hash };
}

const feedRoutes = ['/resources/:id/calendar.ics', '/bookings/calendar.ics'];

/** GET /resources/{id}/calendar.ics and /bookings/calendar.ics (contract §18), by bearer or feed token. */
export function calendarFeedRouter(services: Services): Router {
  const router = Router();

  router.get(feedRoutes, async (req, res, next) => {
    res.locals.rateLimitedClient = await feedClientOf(req, services);
    next();
  });
  router.get(feedRoutes, limitRate(services, (res) => res.locals.rateLimitedClient as RateLimitedClient));

  router.get('/resources/:id/calendar.ics', async (req, res) => {
    const reader = await readerOf(req, services, { kind: 'resource', bookableResourceId: req.params.id });
    const resource = await findCalendarResource(services.db, req.params.id);
    if (!resource || !canSeeWorkspace(reader, resource.workspace)) throw notFound('resource');
    const selection: FeedSelection = { kind: 'resource', bookableResourceId: resource.id, window: feedWindowAt(services.now()) };
    await answerFeed(req, res, services.db, reader, selection, { name: resource.name, version: resource.version }, resource.streamRevision);
  });

  router.get('/bookings/calendar.ics', async (req, res) => {
    const reader = await readerOf(req, services, { kind: 'booker' });
    // In the token's workspace; an LV1 token without one: in every workspace.
    const selection: FeedSelection = { kind: 'booker', sub: reader.sub, workspace: reader.workspace, window: feedWindowAt(services.now()) };
    await answerFeed(req, res, services.db, reader, selection, { name: 'My bookings', version: '' });
  });

  return router;
}
