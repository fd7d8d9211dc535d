import { Router } from 'express';
import { pingDatabase } from '../infra/db/database.js';
import type { Services } from '../services.js';

const timeoutMs = 2_000;

export function healthRouter(services: Services): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    const up = await Promise.race([
      pingDatabase(services.db).then(() => true, () => false),
      new Promise<boolean>((resolve) => setTimeout(resolve, timeoutMs, false).unref()),
    ]);
    const info = { database: { status: up ? 'up' : 'down' } };
    res.status(up ? 200 : 503).json(
      up ? { status: 'ok', info, error: null, details: info } : { status: 'error', info: {}, error: info, details: info },
    );
  });
  return router;
}
