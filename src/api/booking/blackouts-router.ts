import { workspaceScope } from '../../domain/access/workspace-scope.js';
import { Router } from 'express';
import { createBlackout } from '../../commands/blackout/create-blackout.js';
import { deleteBlackout } from '../../commands/blackout/delete-blackout.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { listBlackouts } from '../../projections/blackout/blackout-queries.js';
import type { Services } from '../../services.js';
import { principalOf } from '../authenticate.js';
import { readSideOf } from '../route-reads.js';

type ListQuery = { workspace?: string; from?: string; to?: string; bookableResourceId?: string; page?: number | string; limit?: number | string };

export function blackoutsRouter(services: Services): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    res.status(201).json(await createBlackout(services, principalOf(res), req.body));
  });

  router.get('/', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as ListQuery;
    const page = { page: Number(query.page ?? 1), limit: Number(query.limit ?? 20) };
    const workspace = workspaceScope(actor, query.workspace, '/query/workspace');
    const from = query.from === undefined ? undefined : parseClientInstant(query.from, '/query/from');
    const to = query.to === undefined ? undefined : parseClientInstant(query.to, '/query/to');
    res.json(await listBlackouts(readSideOf(res).db, { workspace, from, to, bookableResourceId: query.bookableResourceId?.toLowerCase() }, page));
  });

  router.delete('/:id', async (req, res) => {
    await deleteBlackout(services, principalOf(res), req.params.id);
    res.status(204).end();
  });

  return router;
}
