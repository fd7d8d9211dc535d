import { Router } from 'express';
import { cancelBundle } from '../../commands/bundle/cancel-bundle.js';
import { createBundle, type Bundle } from '../../commands/bundle/create-bundle.js';
import { moveBundle } from '../../commands/bundle/move-bundle.js';
import { visibleBooking } from '../../domain/booking/booking-access.js';
import { notFound } from '../../domain/domain-error.js';
import { bookingJson } from './booking-json.js';
import { findBundleBookings } from '../../projections/booking/bundle-queries.js';
import type { Services } from '../../services.js';
import { principalOf } from '../authenticate.js';
import { readSideOf } from '../route-reads.js';

const bundleJson = (bundle: Bundle) => ({ id: bundle.id, bookings: bundle.bookings.map((b) => bookingJson(b)) });

/** Contract §22: /booking/v1/bundles. */
export function bundlesRouter(services: Services): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    res.status(201).json(bundleJson(await createBundle(services, principalOf(res), req.body)));
  });

  router.get('/:id', async (req, res) => {
    const actor = principalOf(res);
    const bookings = await findBundleBookings(readSideOf(res).db, req.params.id);
    if (bookings.length === 0) throw notFound('bundle');
    res.json(bundleJson({ id: req.params.id, bookings: bookings.map((b) => visibleBooking(actor, b)) }));
  });

  router.patch('/:id', async (req, res) => {
    res.json(bundleJson(await moveBundle(services, principalOf(res), req.params.id, req.body)));
  });

  router.patch('/:id/cancel', async (req, res) => {
    const reason = (req.body as { reason?: string } | undefined)?.reason ?? null;
    res.json(bundleJson(await cancelBundle(services, principalOf(res), req.params.id, reason)));
  });

  return router;
}
