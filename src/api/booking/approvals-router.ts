import { Router } from 'express';
import { listPendingApprovals } from '../../projections/approval/pending-approvals.js';
import { bookingJson } from './booking-json.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { readSideOf } from '../route-reads.js';

type ListQuery = { page?: number | string; limit?: number | string };

/** GET /booking/v1/approvals (contract §24): the pending bookings the caller may decide, oldest first. */
export function approvalsRouter(services: Services): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const query = req.query as ListQuery;
    const page = { page: Number(query.page ?? 1), limit: Number(query.limit ?? 20) };
    const result = await listPendingApprovals(readSideOf(res).db, principalOf(res), services.now(), page);
    res.json({ ...result, data: result.data.map((b) => bookingJson(b)) });
  });
  return router;
}
