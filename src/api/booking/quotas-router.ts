import { Router } from 'express';
import type { Principal } from '../../domain/access/principal.js';
import { utcText } from '../../domain/booking/booking-time.js';
import { workspaceScope } from '../../domain/access/workspace-scope.js';
import { quotaUsageAccess } from '../../domain/quota/quota-usage-access.js';
import { createQuota, type CreateQuotaInput } from '../../commands/quota/create-quota.js';
import { deleteQuota } from '../../commands/quota/delete-quota.js';
import { findQuotaUsages, listQuotas } from '../../projections/quota/quota-queries.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { readSideOf } from '../route-reads.js';

type ListQuery = { workspace?: string; page?: number; limit?: number };
type UsageQuery = { workspace?: string; bookerProfileId?: string };

/** Hours to the microsecond at most, so that sums of minutes read as people write them. */
const roundedUsed = (used: number) => Math.round(used * 1e6) / 1e6;

const workspaceOf = (actor: Principal, named: string | undefined) => workspaceScope(actor, named, '/query/workspace');

/** Quotas (contract §17): LV1–LV2 set and delete them, every level lists them and reads usage. */
export function quotasRouter(services: Services): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    res.status(201).json(await createQuota(services, principalOf(res), req.body as CreateQuotaInput));
  });

  router.get('/', async (req, res) => {
    const query = req.query as ListQuery;
    const workspace = workspaceOf(principalOf(res), query.workspace);
    res.json(await listQuotas(readSideOf(res).db, workspace, { page: query.page ?? 1, limit: query.limit ?? 20 }));
  });

  router.get('/usage', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as UsageQuery;
    const booker = quotaUsageAccess(actor, query.bookerProfileId);
    const workspace = workspaceOf(actor, query.workspace);
    const usages = await findQuotaUsages(readSideOf(res).db, workspace, booker, services.now());
    res.json({
      bookerProfileId: booker,
      usage: usages.map((u) => ({
        quotaId: u.id,
        periodStart: utcText(u.periodStart),
        periodEnd: utcText(u.periodEnd),
        used: roundedUsed(u.used),
        limit: u.limit,
        unit: u.unit,
      })),
    });
  });

  router.delete('/:id', async (req, res) => {
    await deleteQuota(services, principalOf(res), req.params.id);
    res.status(204).end();
  });

  return router;
}
