import { Router } from 'express';
import { locateRecord } from '../../commands/records/locate-record.js';
import { parseListQuery, parseReadQuery } from '../../domain/record/parse-record-query.js';
import { readScopeOf } from '../../domain/record/record-access.js';
import { marketplaceKind } from '../../projections/record/catalog/marketplace-kind.js';
import { selectRecordPage } from '../../projections/record/select-records.js';
import { recordQueryOf } from '../record/record-query-string.js';
import { recordIdOf } from '../record/record-request.js';
import type { Services } from '../../services.js';
import { readSideOf } from '../route-reads.js';

/**
 * GET /catalog/v1/marketplace and /{id}: the released applications, for every level (they belong
 * to no workspace). No write route: the OpenAPI description has none, so writes answer 405.
 */
export function marketplaceRouter(services: Services): Router {
  const router = Router();
  const scope = readScopeOf(marketplaceKind, { workspace: null });

  router.get('/', async (req, res) => {
    res.json(await selectRecordPage(readSideOf(res).db, marketplaceKind, scope, parseListQuery(marketplaceKind, recordQueryOf(req))));
  });

  router.get('/:id', async (req, res) => {
    const query = parseReadQuery(marketplaceKind, recordQueryOf(req));
    res.json(await locateRecord(readSideOf(res).db, marketplaceKind, scope, recordIdOf(marketplaceKind, req), query));
  });

  return router;
}
