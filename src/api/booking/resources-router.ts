import { workspaceFilter } from '../../domain/access/workspace-scope.js';
import { Router } from 'express';
import { registerResource } from '../../commands/resource/register-resource.js';
import { loadVisibleResource } from '../../commands/resource/load-visible-resource.js';
import { removeResource } from '../../commands/resource/remove-resource.js';
import { updateResource } from '../../commands/resource/update-resource.js';
import type { ResourceType } from '../../domain/resource/resource.js';
import { listResources } from '../../projections/resource/resource-queries.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { resourceJson } from './resource-json.js';
import { readSideOf } from '../route-reads.js';

type ListQuery = { workspace?: string; resourceType?: ResourceType; isActive?: boolean; page: number; limit: number };

export function resourcesRouter(services: Services): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    const resource = await registerResource(services, principalOf(res), req.body, req.headers.authorization);
    res.status(201).json(resourceJson(resource));
  });

  router.get('/', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as unknown as ListQuery;
    const workspace = workspaceFilter(actor, query.workspace, '/query/workspace');
    const page = await listResources(
      readSideOf(res).db,
      { workspace, resourceType: query.resourceType, isActive: query.isActive },
      { page: query.page ?? 1, limit: query.limit ?? 20 },
    );
    res.json({ ...page, data: page.data.map(resourceJson) });
  });

  router.get('/:id', async (req, res) => {
    res.json(resourceJson(await loadVisibleResource(readSideOf(res).db, principalOf(res), req.params.id)));
  });

  router.patch('/:id', async (req, res) => {
    res.json(resourceJson(await updateResource(services, principalOf(res), req.params.id, req.body)));
  });

  router.delete('/:id', async (req, res) => {
    await removeResource(services, principalOf(res), req.params.id);
    res.status(204).end();
  });

  return router;
}
