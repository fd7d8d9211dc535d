import { Router } from 'express';
import { pingDatabase } from '../infra/db/database.js';
import type { Draining } from './draining.js';
import type { WorkersStatus } from '../infra/metrics/worker-status.js';
import type { Services } from '../services.js';

const timeoutMs = 2_000;

function withinTimeout<T>(work: Promise<T>, fallback: T): Promise<T> {
  return Promise.race([work.catch(() => fallback), new Promise<T>((resolve) => setTimeout(resolve, timeoutMs, fallback).unref())]);
}

/** Checkpoints that cannot be read in time tell nothing good about the workers. */
const unknownWorkers: WorkersStatus = { status: 'down', processors: {} };

const shuttingDown = { status: 'down', message: 'this process is shutting down (draining): send new requests to another node' };

/**
 * 200 while the database answers and, in a process that runs workers, every processor keeps up;
 * 503 otherwise. `info` holds the indicators that are up and, whatever its status, `workers`
 * (contract §12); `error` those that are down; `details` all of them. While the database is down
 * the workers' checkpoints cannot be read and are left out. From SIGTERM on (`draining`) it
 * answers 503 at once with `error.shutdown`, checking nothing: a load balancer takes the node out
 * while its requests in flight finish (contract §19). With a read replica, `readReplica` tells
 * whether reads go to it (`up`, with its lag) or to the primary (`behind`, `down`): never a 503,
 * the primary serves every read the replica cannot.
 */
export function healthRouter(services: Services, draining?: Draining): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    if (draining?.active) {
      res.status(503).json({ status: 'error', info: {}, error: { shutdown: shuttingDown }, details: { shutdown: shuttingDown } });
      return;
    }
    const databaseUp = await withinTimeout(pingDatabase(services.checks).then(() => true), false);
    const database = { status: databaseUp ? 'up' : 'down' };
    const workers = databaseUp ? await withinTimeout(services.monitoring.workers.status(), unknownWorkers) : undefined;
    const workersDown = workers?.status === 'down';
    const up = databaseUp && !workersDown;
    const readReplica = services.reads.replicaStatus();
    const info = { ...(databaseUp && { database }), ...(workers && { workers }), ...(readReplica && { readReplica }) };
    const error = { ...(!databaseUp && { database }), ...(workersDown && { workers }) };
    const details = { database, ...(workers && { workers }), ...(readReplica && { readReplica }) };
    res.status(up ? 200 : 503).json({ status: up ? 'ok' : 'error', info, error: up ? null : error, details });
  });
  return router;
}
