import { Router } from 'express';
import { createApprovalDelegation, deleteApprovalDelegation, type CreateApprovalDelegationInput } from '../../commands/approval/approval-delegations.js';
import { pageOf } from '../../domain/page.js';
import { listDelegationsOf } from '../../projections/approval/approval-delegation-queries.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { readSideOf } from '../route-reads.js';

type ListQuery = { page?: number | string; limit?: number | string };

/** Approval delegations (contract §24): an approver hands its right to a delegate for a time window. */
export function approvalDelegationsRouter(services: Services): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    res.status(201).json(await createApprovalDelegation(services, principalOf(res), req.body as CreateApprovalDelegationInput));
  });

  router.get('/', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as ListQuery;
    const page = { page: Number(query.page ?? 1), limit: Number(query.limit ?? 20) };
    // The caller's own, given and received, in its workspace (an LV1 token without one has none).
    res.json(actor.workspace === null ? pageOf([], 0, page) : await listDelegationsOf(readSideOf(res).db, actor.workspace, actor.sub, page));
  });

  router.delete('/:id', async (req, res) => {
    await deleteApprovalDelegation(services, principalOf(res), req.params.id);
    res.status(204).end();
  });

  return router;
}
