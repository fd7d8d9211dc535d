import { Router } from 'express';
import { Temporal } from 'temporal-polyfill';
import { openMinutesPerPeriod } from '../../domain/analytics/open-minutes.js';
import { assertCanAnalyseResource, assertCanReadUtilization } from '../../domain/analytics/utilization-access.js';
import { periodBoundaries, utilizationPeriods, type UtilizationGrouping } from '../../domain/analytics/utilization-periods.js';
import { noBookings, utilizationRow, type BookingFigures } from '../../domain/analytics/utilization-row.js';
import type { Principal } from '../../domain/access/principal.js';
import { parseClientInstant, utcText } from '../../domain/booking/booking-time.js';
import { invalidRequest } from '../../domain/domain-error.js';
import { canonicalTimeZone } from '../../domain/time/time-zone.js';
import type { Executor } from '../../infra/db/database.js';
import { findAnalysedResources, listAnalysedResources, sumBookingsPerPeriod, type AnalysedResource } from '../../projections/utilization/utilization-queries.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { timeJson } from './booking-json.js';

const maxRangeDays = 366;

type UtilizationQuery = { from?: string; to?: string; tz?: string; resourceId?: string | string[]; groupBy?: UtilizationGrouping };

/** The resources asked for (each once, by id), or every one the caller may see in its workspace. */
async function analysedResources(db: Executor, actor: Principal, asked: string | string[] | undefined): Promise<AnalysedResource[]> {
  if (asked === undefined) {
    return listAnalysedResources(db, { workspace: actor.workspace, groups: actor.level === 3 ? actor.groups : null });
  }
  const ids = [...new Set(([] as string[]).concat(asked))].sort();
  const found = new Map((await findAnalysedResources(db, ids)).map((r) => [r.id, r]));
  return ids.map((id) => {
    const resource = found.get(id);
    assertCanAnalyseResource(actor, resource);
    return resource!;
  });
}

/** GET /analytics/utilization (contract §14): open and booked minutes per resource, or per resource and day. */
export function utilizationRouter(services: Services): Router {
  const router = Router();

  router.get('/utilization', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as UtilizationQuery;
    const from = parseClientInstant(String(query.from), '/query/from');
    const to = parseClientInstant(String(query.to), '/query/to');
    const timeZone = canonicalTimeZone(String(query.tz ?? 'UTC'));
    if (!timeZone) throw invalidRequest(`unknown time zone "${String(query.tz)}"`, '/query/tz');
    if (Temporal.Instant.compare(to, from) <= 0) throw invalidRequest('to must be after from', '/query/to');
    if (Temporal.Instant.compare(to, from.add({ hours: maxRangeDays * 24 })) > 0) {
      throw invalidRequest(`the range may span at most ${maxRangeDays} days`, '/query/to');
    }
    assertCanReadUtilization(actor);
    const resources = await analysedResources(services.db, actor, query.resourceId);

    const periods = utilizationPeriods(from, to, query.groupBy ?? 'resource', timeZone);
    const figures = new Map<string, BookingFigures>();
    for (const f of await sumBookingsPerPeriod(services.db, resources.map((r) => r.id), periodBoundaries(periods))) {
      figures.set(`${f.resourceId}/${f.period}`, f);
    }
    // Resources sharing their hours (the usual case) share the open minutes' computation.
    const openByHours = new Map<string, number[]>();
    const openMinutesOf = (resource: AnalysedResource) => {
      const key = JSON.stringify(resource.availability);
      let open = openByHours.get(key);
      if (!open) openByHours.set(key, (open = openMinutesPerPeriod(resource.availability, periods)));
      return open;
    };
    const rows = resources.flatMap((resource) => {
      const open = openMinutesOf(resource);
      return periods.map((period, i) => utilizationRow(resource.id, period.day, open[i]!, figures.get(`${resource.id}/${i + 1}`) ?? noBookings));
    });
    res.json({
      from: timeJson(utcText(from), query.tz === undefined ? undefined : timeZone),
      to: timeJson(utcText(to), query.tz === undefined ? undefined : timeZone),
      timeZone,
      rows,
    });
  });

  return router;
}
