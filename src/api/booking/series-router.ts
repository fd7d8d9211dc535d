import { Router } from 'express';
import { cancelSeries } from '../../commands/booking/series/cancel-series.js';
import { createSeries, type CreatedSeries } from '../../commands/booking/series/create-series.js';
import { previewSeries } from '../../commands/booking/series/preview-series.js';
import { updateSeries } from '../../commands/booking/series/update-series.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { bookingJson } from './booking-json.js';

const seriesJson = ({ parent, occurrences }: CreatedSeries) => ({ parent: bookingJson(parent), occurrences: occurrences.map((b) => bookingJson(b)) });

/** Recurring series; mounted on /booking/v1/bookings ahead of the single-booking routes. */
export function seriesRouter(services: Services): Router {
  const router = Router();

  router.post('/bulk', async (req, res) => {
    const actor = principalOf(res);
    const { dryRun } = req.query as { dryRun?: boolean | string };
    if (dryRun === true || dryRun === 'true') {
      res.json({ occurrences: await previewSeries(services, actor, req.body) });
      return;
    }
    res.status(201).json(seriesJson(await createSeries(services, actor, req.body)));
  });

  router.patch('/series/:parentId', async (req, res) => {
    res.json(seriesJson(await updateSeries(services, principalOf(res), req.params.parentId, req.body)));
  });

  router.patch('/series/:parentId/cancel', async (req, res) => {
    const reason = (req.body as { reason?: string } | undefined)?.reason ?? null;
    const { parent, cancelled } = await cancelSeries(services, principalOf(res), req.params.parentId, reason);
    res.json({ parent: bookingJson(parent), cancelled });
  });

  return router;
}
