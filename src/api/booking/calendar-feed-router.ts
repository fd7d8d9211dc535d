import { Router, type Response } from 'express';
import { Temporal } from 'temporal-polyfill';
import { canSeeWorkspace } from '../../domain/access/principal.js';
import { feedWindow } from '../../domain/calendar/calendar-feed.js';
import { notFound } from '../../domain/domain-error.js';
import { findCalendarResource } from '../../projections/calendar/calendar-resource.js';
import type { Services } from '../../services.js';
import { principalOf } from '../authenticate.js';
import { clientHoldsOf, sendTagged, type TaggedAnswer } from '../conditional-get.js';
import { readSideOf } from '../route-reads.js';
import { readCalendarFeed } from './calendar-feed-answer.js';

/** The window anchored to the whole minute: a feed's rows change with the minute at most, so versions can be kept for one. */
const feedWindowAt = (now: Temporal.Instant) => feedWindow(Temporal.Instant.fromEpochMilliseconds(Math.floor(now.epochMilliseconds / 60_000) * 60_000));

/** A feed's answer: revalidated at every read (a 304 costs one aggregate), as text/calendar. */
const sendFeed = (res: Response, answer: TaggedAnswer) => sendTagged(res.set('Cache-Control', 'private, no-cache'), answer, { 'Content-Type': 'text/calendar; charset=utf-8' });

/** GET /resources/{id}/calendar.ics and /bookings/calendar.ics (contract §18): the reader is the bearer or the feed token's creator (authenticate). */
export function calendarFeedRouter(services: Services): Router {
  const router = Router();

  router.get('/resources/:id/calendar.ics', async (req, res) => {
    const reader = principalOf(res);
    const { db } = readSideOf(res);
    const resource = await findCalendarResource(db, req.params.id);
    if (!resource || !canSeeWorkspace(reader, resource.workspace)) throw notFound('resource');
    const answer = await readCalendarFeed(db, {
      reader,
      selection: { kind: 'resource', bookableResourceId: resource.id, window: feedWindowAt(services.now()) },
      calendar: { name: resource.name, version: resource.version },
      streamRevision: resource.streamRevision,
      clientHolds: clientHoldsOf(req),
    });
    sendFeed(res, answer);
  });

  router.get('/bookings/calendar.ics', async (req, res) => {
    const reader = principalOf(res);
    const answer = await readCalendarFeed(readSideOf(res).db, {
      reader,
      // In the token's workspace; an LV1 token without one: in every workspace.
      selection: { kind: 'booker', sub: reader.sub, workspace: reader.workspace, window: feedWindowAt(services.now()) },
      calendar: { name: 'My bookings', version: '' },
      clientHolds: clientHoldsOf(req),
    });
    sendFeed(res, answer);
  });

  return router;
}
