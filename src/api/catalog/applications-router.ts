import { Router } from 'express';
import { applications } from '../../commands/catalog/catalog-records.js';
import { changeApplicationStatus } from '../../commands/catalog/change-application-status.js';
import type { ApplicationStatus } from '../../domain/catalog/application-status.js';
import { forbidden } from '../../domain/domain-error.js';
import { parseListQuery } from '../../domain/record/parse-record-query.js';
import { readScopeOf, scopeOf } from '../../domain/record/record-access.js';
import { marketplaceKind } from '../../projections/record/catalog/marketplace-kind.js';
import { selectRecordPage } from '../../projections/record/select-records.js';
import { principalOf } from '../authenticate.js';
import { recordQueryOf } from '../record/record-query-string.js';
import { recordIdOf, requestedWorkspaceOf } from '../record/record-request.js';
import { recordRouter } from '../record/record-router.js';
import type { Services } from '../../services.js';
import { readSideOf } from '../route-reads.js';

type StatusBody = { status: ApplicationStatus };

/** /catalog/v1/applications: the generic record operations, the list of released applications (the marketplace's), and the status moves. */
export function applicationsRouter(services: Services): Router {
  const router = Router();
  const { kind } = applications;

  router.get('/released', async (req, res) => {
    const actor = principalOf(res);
    if (!applications.access.read(actor)) throw forbidden(`LV${actor.level} may not read ${kind.label} records`);
    const scope = readScopeOf(marketplaceKind, scopeOf(actor, requestedWorkspaceOf(req)));
    res.json(await selectRecordPage(readSideOf(res).db, marketplaceKind, scope, parseListQuery(marketplaceKind, recordQueryOf(req))));
  });

  router.patch('/:id/status', async (req, res) => {
    const { status } = req.body as StatusBody;
    res.json(await changeApplicationStatus(services, principalOf(res), recordIdOf(kind, req) as number, status));
  });

  router.use(recordRouter(services, applications));
  return router;
}
