import { Router, type RequestHandler } from 'express';
import { listOwnWork } from '../../commands/catalog/list-own-work.js';
import { parseListQuery } from '../../domain/record/parse-record-query.js';
import type { RecordKind } from '../../domain/record/record-kind.js';
import { ownApplicationKind, ownProjectKind } from '../../projections/record/catalog/own-work-kinds.js';
import { recordQueryOf } from '../record/record-query-string.js';
import type { Services } from '../../services.js';
import { enabledPublishing } from './enabled-publishing.js';
import { publisherPrincipalOf } from './publisher-principal-of.js';

/** GET /publish/projects and /publish/applications: the publisher token's own work, in the catalog's list envelope and query language. */
export function ownWorkRouter(services: Services): Router {
  const router = Router();
  const list =
    (kind: RecordKind): RequestHandler =>
    async (req, res) => {
      const publishing = enabledPublishing(services.publishing);
      const principal = publisherPrincipalOf(req, publishing.tokens);
      res.json(await listOwnWork(services.db, principal, kind, parseListQuery(kind, recordQueryOf(req))));
    };
  router.get('/publish/projects', list(ownProjectKind));
  router.get('/publish/applications', list(ownApplicationKind));
  return router;
}
