import { Router } from 'express';
import { joinWaitlist, leaveWaitlist, type JoinWaitlistInput } from '../../commands/waitlist/waitlist-commands.js';
import { seesOwnBookingsOnly } from '../../domain/access/principal.js';
import { workspaceFilter } from '../../domain/access/workspace-scope.js';
import { notFound } from '../../domain/domain-error.js';
import { canReachEntry } from '../../domain/waitlist/decide-leave-waitlist.js';
import type { WaitlistStatus } from '../../domain/waitlist/waitlist-entry.js';
import { findWaitlistEntry, listWaitlist, type WaitlistFilter } from '../../projections/waitlist/waitlist-queries.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { readSideOf } from '../route-reads.js';

type ListQuery = { workspace?: string; resourceType?: string; resourceId?: string; status?: WaitlistStatus; page?: number | string; limit?: number | string };

/** Waitlists (contract §23): join a taken slot, list, read and leave entries. */
export function waitlistRouter(services: Services): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    res.status(201).json(await joinWaitlist(services, principalOf(res), req.body as JoinWaitlistInput));
  });

  router.get('/', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as ListQuery;
    const page = { page: Number(query.page ?? 1), limit: Number(query.limit ?? 20) };
    const filter: WaitlistFilter = {
      workspace: workspaceFilter(actor, query.workspace, '/query/workspace'),
      resourceType: query.resourceType,
      resourceId: query.resourceId,
      status: query.status,
      // LV4/LV5 see their own entries.
      bookerProfileId: seesOwnBookingsOnly(actor) ? actor.sub : undefined,
    };
    res.json(await listWaitlist(readSideOf(res).db, filter, page));
  });

  router.get('/:id', async (req, res) => {
    const entry = await findWaitlistEntry(readSideOf(res).db, req.params.id);
    if (!entry || !canReachEntry(entry, principalOf(res))) throw notFound('waitlist entry');
    res.json(entry);
  });

  router.delete('/:id', async (req, res) => {
    res.json(await leaveWaitlist(services, principalOf(res), req.params.id));
  });

  return router;
}
