import { resourceBlackoutEvents } from '../../projections/history/resource-blackout-history.js';
import { Router } from 'express';
import { administersGroup, canSeeWorkspace, isGroupAdmin, type Principal } from '../../domain/access/principal.js';
import { visibleBooking } from '../../domain/booking/booking-access.js';
import type { Booking } from '../../domain/booking/booking.js';
import { forbidden, notFound } from '../../domain/domain-error.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import { bookingHistory } from '../../projections/history/booking-history.js';
import { historyEventName } from '../../projections/history/history-event-name.js';
import { findResource } from '../../projections/resource/resource-queries.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { bookingJson } from './booking-json.js';
import { readSideOf } from '../route-reads.js';

/** A resource's whole stream is for LV1–LV3, LV3 only for its groups' resources. */
function assertMayReadResourceHistory(actor: Principal, groupId: string | null): void {
  if (administersGroup(actor, groupId)) return;
  throw forbidden(isGroupAdmin(actor) ? "a group admin reads only its own groups' resource history" : 'resource history needs permission level LV1–LV3');
}

/** GET /bookings/{id}/history and /resources/{id}/history (contract §13): folds over the log, never the read models. */
export function historyRouter(services: Services): Router {
  const router = Router();

  router.get('/bookings/:id/history', async (req, res) => {
    const events = await readSideOf(res).logReader.readBookingEvents(req.params.id);
    // Whoever may read the booking as it stands now may read how it got there.
    const latest = events.at(-1)?.data.booking as Booking | undefined;
    visibleBooking(principalOf(res), latest ?? null);
    res.json({ bookingId: req.params.id, events: bookingHistory(events, (booking) => bookingJson(booking)) });
  });

  router.get('/resources/:id/history', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as { after?: string | number; limit?: string | number };
    const after = Number(query.after ?? -1);
    const limit = Number(query.limit ?? 100);
    const resource = await findResource(readSideOf(res).db, req.params.id);
    if (!resource || !canSeeWorkspace(actor, resource.workspace)) throw notFound('resource');
    assertMayReadResourceHistory(actor, resource.groupId);
    const [events, blackouts] = await Promise.all([
      readSideOf(res).logReader.readStreamEvents(resourceStreamId(resource.id), after, limit + 1),
      resourceBlackoutEvents(readSideOf(res).logReader, resource.workspace, resource.id),
    ]);
    const page = events.slice(0, limit);
    res.json({
      resourceId: resource.id,
      events: page.map((event) => ({
        position: Number(event.globalPosition),
        revision: Number(event.streamRevision),
        event: historyEventName(event),
        type: event.type,
        at: event.data.at,
        by: event.data.by,
        data: event.data,
        hash: event.hash,
      })),
      next: events.length > limit ? Number(page.at(-1)!.streamRevision) : null,
      // Contract §17: the blackouts covering the resource, from the workspace's blackout stream (its own revisions and chain).
      blackouts: blackouts.map((event) => ({
        position: Number(event.globalPosition),
        stream: event.streamId,
        revision: Number(event.streamRevision),
        event: historyEventName(event),
        type: event.type,
        at: (event.data as { at: string }).at,
        by: (event.data as { by: string }).by,
        data: event.data,
        hash: event.hash,
      })),
    });
  });

  return router;
}
