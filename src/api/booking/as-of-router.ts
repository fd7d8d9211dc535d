import { Router } from 'express';
import { Temporal } from 'temporal-polyfill';
import { loadVisibleResource } from '../../commands/resource/load-visible-resource.js';
import { canSeeBooking, visibleBooking } from '../../domain/booking/booking-access.js';
import { parseClientInstant, utcText } from '../../domain/booking/booking-time.js';
import { invalidRequest, notFound } from '../../domain/domain-error.js';
import { bookingAsOf, bookingsAsOf } from '../../projections/history/bookings-as-of.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { anonymousBookingJson, bookingJson, timeJson } from './booking-json.js';
import { parseScheduleQuery } from './schedule-query.js';
import { readSideOf } from '../route-reads.js';

/** The instant an asOf answer stands at: with an offset, and not after now. */
function asOfInstant(text: string, now: Temporal.Instant): Temporal.Instant {
  const asOf = parseClientInstant(text, '/query/asOf');
  if (Temporal.Instant.compare(asOf, now) > 0) throw invalidRequest('asOf lies in the future', '/query/asOf');
  return asOf;
}

/**
 * Time travel (contract §13): GET /bookings/{id} and /resources/{id}/schedule with asOf answer from
 * the log as it stood then, never from the read models; without asOf they pass to the live routes.
 */
export function asOfRouter(services: Services): Router {
  const router = Router();

  router.get('/bookings/:id', async (req, res, next) => {
    if (req.query.asOf === undefined) return next();
    const asOf = asOfInstant(String(req.query.asOf), services.now());
    res.json(bookingJson(visibleBooking(principalOf(res), await bookingAsOf(readSideOf(res).logReader, req.params.id, asOf))));
  });

  router.get('/resources/:id/schedule', async (req, res, next) => {
    if (req.query.asOf === undefined) return next();
    const actor = principalOf(res);
    const asOf = asOfInstant(String(req.query.asOf), services.now());
    const query = parseScheduleQuery(req.query);
    const { from, to, timeZone } = query;
    const statuses = new Set<string>(query.statuses);
    const resource = await loadVisibleResource(readSideOf(res).db, actor, req.params.id);
    const known = await bookingsAsOf(readSideOf(res).db, readSideOf(res).logReader, resource.id, asOf);
    if (!known) throw notFound('resource');
    const [fromMs, toMs] = [from.epochMilliseconds, to.epochMilliseconds];
    const bookings = known
      .filter((b) => !b.isSeriesParent && !b.archivedAt && statuses.has(b.status) && Date.parse(b.startTime) < toMs && Date.parse(b.endTime) > fromMs)
      .sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    res.json({
      resourceId: resource.id,
      from: timeJson(utcText(from), timeZone),
      to: timeJson(utcText(to), timeZone),
      timeZone: timeZone ?? 'UTC',
      bookings: bookings.map((b) => (canSeeBooking(actor, b) ? bookingJson(b, timeZone) : anonymousBookingJson(b, timeZone))),
    });
  });

  return router;
}
