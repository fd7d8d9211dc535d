import { Router, type Request } from 'express';
import type { Services } from '../services.js';

/**
 * The route template a request matched (`/booking/v1/bookings/:id`), never its raw path: raw
 * paths would give every id a series of its own. A request refused before routing takes the
 * template the OpenAPI validator matched, else `unmatched`.
 */
function routeOf(req: Request): string {
  // A router's own root ('/') adds nothing to the path it is mounted on.
  if (req.route?.path !== undefined) return `${req.baseUrl}${String(req.route.path)}`.replace(/(.)\/$/, '$1');
  const openapi = (req as Request & { openapi?: { expressRoute?: string } }).openapi;
  return openapi?.expressRoute ?? 'unmatched';
}

/**
 * `GET /metrics` (Prometheus text format, no token) and the timing of every request after it;
 * nothing at all when METRICS=off. Mounted first, so that scrapes are not logged as requests.
 */
export function metricsRouter(services: Services): Router {
  const router = Router();
  if (!services.config.metrics) return router;
  const { monitoring } = services;
  router.get('/metrics', async (_req, res) => {
    const { contentType, body } = await monitoring.scrape();
    res.type(contentType).send(body);
  });
  router.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      monitoring.httpRequestDuration.observe({ method: req.method, route: routeOf(req), status_code: String(res.statusCode) }, seconds);
    });
    next();
  });
  return router;
}
