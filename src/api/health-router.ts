import { Router } from 'express';
import { pingDatabase } from '../infra/db/database.js';
import type { WorkersStatus } from '../infra/metrics/worker-status.js';
import type { Services } from '../services.js';

const timeoutMs = 2_000;

function withinTimeout<T>(work: Promise<T>, fallback: T): Promise<T> {
  return Promise.race([work.catch(() => fallback), new Promise<T>((resolve) => setTimeout(resolve, timeoutMs, fallback).unref())]);
}

/** Checkpoints that cannot be read in time tell nothing good about the workers. */
const unknownWorkers: WorkersStatus = { status: 'down', processors: {} };

/**
 * 200 while the database answers and, in a process that runs workers, every processor keeps up;
 * 503 otherwise. `info` holds the indicators that are up and, whatever its status, `workers`
 * (contract §12); `error` those that are down; `details` all of them. While the database is down
 * the workers' checkpoints cannot be read and are left out.
 */
export function healthRouter(services: Services): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    const databaseUp = await withinTimeout(pingDatabase(services.db).then(() => true), false);
    const database = { status: databaseUp ? 'up' : 'down' };
    const workers = databaseUp ? await withinTimeout(services.monitoring.workers.status(), unknownWorkers) : undefined;
    const workersDown = workers?.status === 'down';
    const up = databaseUp && !workersDown;
    const info = { ...(databaseUp && { database }), ...(workers && { workers }) };
    const error = { ...(!databaseUp && { database }), ...(workersDown && { workers }) };
    const details = { database, ...(workers && { workers }) };
    res.status(up ? 200 : 503).json({ status: up ? 'ok' : 'error', info, error: up ? null : error, details });
  });
  return router;
}
