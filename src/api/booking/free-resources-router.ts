import { Router } from 'express';
import type { Temporal } from 'temporal-polyfill';
import { utcText } from '../../domain/booking/booking-time.js';
import { searchFreeResources } from '../../projections/resource/search-free-resources.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { timeJson } from './booking-json.js';
import { asQueryFault, parseFreeResourcesQuery } from './free-resources-query.js';
import { resourceJson } from './resource-json.js';
import { readSideOf } from '../route-reads.js';

/** GET /booking/v1/free-resources (contract §16). */
export function freeResourcesRouter(services: Services): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const actor = principalOf(res);
    const query = parseFreeResourcesQuery(req.query, actor);
    const time = (instant: Temporal.Instant) => timeJson(utcText(instant), query.answerZone);
    const found = await searchFreeResources(readSideOf(res).db, actor, query, services.now()).catch((error: unknown) => {
      throw asQueryFault(error);
    });
    const listed = [
      ...found.free.map(({ resource, availableUnits }) => ({ ...resourceJson(resource), availableUnits })),
      ...found.partlyFree.map(({ resource, unavailableOccurrences }) => ({
        ...resourceJson(resource),
        unavailableOccurrences: unavailableOccurrences.map((o) => ({ startTime: time(o.startTime), endTime: time(o.endTime), reason: o.reason })),
      })),
    ];
    res.json({
      from: time(query.startTime),
      to: time(query.endTime),
      timeZone: query.timeZone,
      total: found.total,
      resources: listed.slice(0, query.limit),
      ...(found.suggestions && found.total < query.limit
        ? { suggestions: found.suggestions.map((s) => ({ resource: resourceJson(s.resource), startTime: time(s.startTime), endTime: time(s.endTime) })) }
        : {}),
    });
  });

  return router;
}
