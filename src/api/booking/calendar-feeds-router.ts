import { randomUUID } from 'node:crypto';
import { Router, type Request } from 'express';
import { canSeeWorkspace } from '../../domain/access/principal.js';
import type { CalendarFeed } from '../../domain/calendar/calendar-feed.js';
import { notFound } from '../../domain/domain-error.js';
import { newFeedToken } from '../../infra/auth/feed-token.js';
import { findCalendarResource } from '../../projections/calendar/calendar-resource.js';
import { insertCalendarFeed, listCalendarFeeds, revokeCalendarFeed } from '../../infra/calendar/calendar-feeds.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { readSideOf } from '../route-reads.js';

const feedJson = (feed: CalendarFeed) => ({ id: feed.id, bookableResourceId: feed.bookableResourceId, createdAt: feed.createdAt });

/** The feed's absolute URL as this request reached the service (protocol and host as express reads them, trust proxy included). */
function feedUrl(req: Request, feed: CalendarFeed, token: string): string {
  const path = feed.bookableResourceId === null ? '/booking/v1/bookings/calendar.ics' : `/booking/v1/resources/${feed.bookableResourceId}/calendar.ics`;
  return `${req.protocol}://${req.host}${path}?token=${encodeURIComponent(token)}`;
}

/** POST, GET and DELETE /calendar-feeds (contract §18): each caller manages its own feed tokens. */
export function calendarFeedsRouter(services: Services): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    const actor = principalOf(res);
    const { bookableResourceId } = req.body as { bookableResourceId?: string };
    let resourceId: string | null = null;
    if (bookableResourceId !== undefined) {
      const resource = await findCalendarResource(services.db, bookableResourceId);
      if (!resource || !canSeeWorkspace(actor, resource.workspace)) throw notFound('resource');
      resourceId = resource.id;
    }
    const { token, hash } = newFeedToken();
    const feed: CalendarFeed = { id: randomUUID(), bookableResourceId: resourceId, owner: { ...actor, groups: [...actor.groups] }, createdAt: services.now().toString() };
    await insertCalendarFeed(services.db, feed, hash);
    res.status(201).json({ ...feedJson(feed), url: feedUrl(req, feed, token), token });
  });

  router.get('/', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as unknown as { page?: number; limit?: number };
    const page = await listCalendarFeeds(readSideOf(res).db, actor, { page: query.page ?? 1, limit: query.limit ?? 20 });
    res.json({ ...page, data: page.data.map(feedJson) });
  });

  router.delete('/:id', async (req, res) => {
    const revoked = await revokeCalendarFeed(services.db, principalOf(res), req.params.id, new Date(services.now().epochMilliseconds));
    if (!revoked) throw notFound('calendar feed');
    res.status(204).end();
  });

  return router;
}
