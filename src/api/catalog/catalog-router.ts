import { Router } from 'express';
import { projects, publishers } from '../../commands/catalog/catalog-records.js';
import { recordRouter } from '../record/record-router.js';
import type { Services } from '../../services.js';
import { applicationsRouter } from './applications-router.js';
import { marketplaceRouter } from './marketplace-router.js';
import { purchasesRouter } from './purchases-router.js';

/** /catalog/v1: the application catalog's records. Mount it behind authenticate. */
export function catalogRouter(services: Services): Router {
  const router = Router();
  router.use('/projects', recordRouter(services, projects));
  router.use('/applications', applicationsRouter(services));
  router.use('/purchases', purchasesRouter(services));
  router.use('/publishers', recordRouter(services, publishers));
  router.use('/marketplace', marketplaceRouter(services));
  return router;
}
