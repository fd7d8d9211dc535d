import { Router, type Request, type Response } from 'express';
import { purchases } from '../../commands/catalog/catalog-records.js';
import { principalOf } from '../authenticate.js';
import { requestedWorkspaceOf } from '../record/record-request.js';
import { recordRouter } from '../record/record-router.js';
import type { Services } from '../../services.js';

type PurchaseBody = Record<string, unknown>;

/** A new purchase is always the caller's; it lies in the workspace the caller acts in unless the body names one. */
function withDefaults(req: Request, res: Response, body: PurchaseBody): PurchaseBody {
  const actor = principalOf(res);
  const workspace = requestedWorkspaceOf(req) ?? actor.workspace;
  return { ...(workspace === null ? {} : { workspace }), ...body, purchasedBy: actor.sub };
}

/** /catalog/v1/purchases: the generic record operations, with the defaults of a new purchase. */
export function purchasesRouter(services: Services): Router {
  const router = Router();
  router.post('/', (req, res, next) => {
    req.body = withDefaults(req, res, req.body as PurchaseBody);
    next();
  });
  router.post('/bulk', (req, res, next) => {
    const { bulk } = req.body as { bulk: PurchaseBody[] };
    req.body = { bulk: bulk.map((body) => withDefaults(req, res, body)) };
    next();
  });
  router.use(recordRouter(services, purchases));
  return router;
}
