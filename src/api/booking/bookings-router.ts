import { seesOwnBookingsOnly } from '../../domain/access/principal.js';
import { workspaceFilter } from '../../domain/access/workspace-scope.js';
import { Router } from 'express';
import { cancelBooking, checkInBooking, checkOutBooking, confirmBooking } from '../../commands/booking/booking-moves.js';
import { createBooking } from '../../commands/booking/create-booking.js';
import { rescheduleBooking } from '../../commands/booking/reschedule-booking.js';
import type { BookingStatus } from '../../domain/booking/booking.js';
import { visibleBooking } from '../../domain/booking/booking-access.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { findBookingOrArchived, listBookings, type BookingFilter } from '../../projections/booking/booking-queries.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { bookingJson } from './booking-json.js';
import { readSideOf } from '../route-reads.js';

type ListQuery = {
  workspace?: string;
  resourceId?: string;
  status?: BookingStatus;
  seriesParents?: 'include' | 'exclude';
  bookerProfileId?: string;
  from?: string;
  to?: string;
  page?: number | string;
  limit?: number | string;
  archived?: string;
};

export function bookingsRouter(services: Services): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    res.status(201).json(bookingJson(await createBooking(services, principalOf(res), req.body)));
  });

  router.get('/', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as ListQuery;
    const page = { page: Number(query.page ?? 1), limit: Number(query.limit ?? 20) };
    const filter: BookingFilter = {
      workspace: query.workspace,
      resourceId: query.resourceId,
      status: query.status,
      bookerProfileId: query.bookerProfileId,
      from: query.from === undefined ? undefined : parseClientInstant(query.from, '/query/from'),
      to: query.to === undefined ? undefined : parseClientInstant(query.to, '/query/to'),
      archived: query.archived === 'true',
      includeSeriesParents: query.seriesParents === 'include',
    };
    filter.workspace = workspaceFilter(actor, query.workspace, '/query/workspace');
    // LV4/LV5 see their own bookings, whatever booker they name.
    if (seesOwnBookingsOnly(actor)) filter.bookerProfileId = actor.sub;
    const result = await listBookings(readSideOf(res).db, filter, page);
    res.json({ ...result, data: result.data.map((b) => bookingJson(b)) });
  });

  router.get('/:id', async (req, res) => {
    res.json(bookingJson(visibleBooking(principalOf(res), await findBookingOrArchived(readSideOf(res).db, req.params.id))));
  });

  router.patch('/:id', async (req, res) => {
    res.json(bookingJson(await rescheduleBooking(services, principalOf(res), req.params.id, req.body)));
  });

  router.patch('/:id/confirm', async (req, res) => {
    res.json(bookingJson(await confirmBooking(services, principalOf(res), req.params.id)));
  });

  router.patch('/:id/cancel', async (req, res) => {
    const reason = (req.body as { reason?: string } | undefined)?.reason ?? null;
    res.json(bookingJson(await cancelBooking(services, principalOf(res), req.params.id, reason)));
  });

  router.patch('/:id/checkin', async (req, res) => {
    res.json(bookingJson(await checkInBooking(services, principalOf(res), req.params.id)));
  });

  router.patch('/:id/checkout', async (req, res) => {
    res.json(bookingJson(await checkOutBooking(services, principalOf(res), req.params.id)));
  });

  return router;
}
