import { Router } from 'express';
import { isSystemAdmin, isWorkspaceAdmin, type Principal } from '../../domain/access/principal.js';
import { forbidden, notFound } from '../../domain/domain-error.js';
import { listDeadLetters, redeliverDeadLetter } from '../../infra/webhook/dead-letters.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { readSideOf } from '../route-reads.js';

/** LV1 sees every workspace, LV2 its own; nobody else handles deliveries. */
function deadLetterScope(actor: Principal): string | undefined {
  if (isSystemAdmin(actor)) return undefined;
  if (isWorkspaceAdmin(actor) && actor.workspace) return actor.workspace;
  throw forbidden('webhook dead letters need permission level LV1 or LV2');
}

export function webhooksRouter(services: Services): Router {
  const router = Router();

  router.get('/dead-letters', async (req, res) => {
    const workspace = deadLetterScope(principalOf(res));
    const query = req.query as unknown as { page?: number; limit?: number };
    res.json(await listDeadLetters(readSideOf(res).db, workspace, { page: query.page ?? 1, limit: query.limit ?? 20 }));
  });

  router.post('/dead-letters/:id/redeliver', async (req, res) => {
    const deadLetter = await redeliverDeadLetter(services.db, req.params.id, deadLetterScope(principalOf(res)));
    if (!deadLetter) throw notFound('dead letter');
    res.status(202).json(deadLetter);
  });

  return router;
}
