import { Router } from 'express';
import { Temporal } from 'temporal-polyfill';
import { figuresPerPeriod } from '../../domain/analytics/figures-per-period.js';
import { openMinutesPerPeriod } from '../../domain/analytics/open-minutes.js';
import { assertCanAnalyseResource, assertCanReadUtilization } from '../../domain/analytics/utilization-access.js';
import { periodBoundaries, utilizationPeriods, type UtilizationGrouping } from '../../domain/analytics/utilization-periods.js';
import { utilizationRowJson } from '../../domain/analytics/utilization-row.js';
import { isGroupAdmin, type Principal } from '../../domain/access/principal.js';
import { coversResource, type Blackout } from '../../domain/blackout/blackout.js';
import { utcText } from '../../domain/booking/booking-time.js';
import { invalidRequest } from '../../domain/domain-error.js';
import type { Executor } from '../../infra/db/database.js';
import { findBlackoutsOverlapping } from '../../projections/blackout/blackout-queries.js';
import { findAnalysedBookings, findAnalysedResources, listAnalysedResources, type AnalysedResource } from '../../projections/utilization/utilization-queries.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { timeJson } from './booking-json.js';
import { parseScheduleQuery } from './schedule-query.js';
import { readSideOf } from '../route-reads.js';

type UtilizationQuery = { from?: string; to?: string; tz?: string; resourceId?: string | string[]; groupBy?: UtilizationGrouping };

/** The resources asked for (each once, by id), or every one the caller may see in its workspace. */
async function analysedResources(db: Executor, actor: Principal, asked: string | string[] | undefined): Promise<AnalysedResource[]> {
  if (asked === undefined) {
    return listAnalysedResources(db, { workspace: actor.workspace, groups: isGroupAdmin(actor) ? actor.groups : null });
  }
  const ids = [...new Set(([] as string[]).concat(asked))].sort();
  const found = new Map((await findAnalysedResources(db, ids)).map((r) => [r.id, r]));
  return ids.map((id) => {
    const resource = found.get(id);
    assertCanAnalyseResource(actor, resource);
    return resource!;
  });
}

/** The blackouts overlapping [from, to) of each workspace the resources belong to. */
async function blackoutsOfWorkspaces(db: Executor, resources: readonly AnalysedResource[], from: Temporal.Instant, to: Temporal.Instant): Promise<Map<string, Blackout[]>> {
  const workspaces = [...new Set(resources.map((r) => r.workspace))];
  return new Map(await Promise.all(workspaces.map(async (w) => [w, await findBlackoutsOverlapping(db, w, from, to)] as const)));
}

/** GET /analytics/utilization (contract §14): open and booked minutes per resource, or per resource and day. */
export function utilizationRouter(services: Services): Router {
  const router = Router();

  router.get('/utilization', async (req, res) => {
    const actor = principalOf(res);
    const query = req.query as UtilizationQuery;
    const { from, to, timeZone: asked } = parseScheduleQuery(query);
    const timeZone = asked ?? 'UTC';
    assertCanReadUtilization(actor);
    const resources = await analysedResources(readSideOf(res).db, actor, query.resourceId);

    const periods = utilizationPeriods(from, to, query.groupBy ?? 'resource', timeZone);
    const boundaries = periodBoundaries(periods);
    const [bookings, blackouts] = await Promise.all([
      findAnalysedBookings(readSideOf(res).db, resources.map((r) => r.id), boundaries[0]!, boundaries.at(-1)!),
      blackoutsOfWorkspaces(readSideOf(res).db, resources, Temporal.Instant.fromEpochMilliseconds(boundaries[0]!), Temporal.Instant.fromEpochMilliseconds(boundaries.at(-1)!)),
    ]);
    // Resources sharing their hours and blackouts (the usual case) share the open minutes' computation.
    const openByHours = new Map<string, number[]>();
    const openMinutesOf = (resource: AnalysedResource) => {
      const closed = (blackouts.get(resource.workspace) ?? []).filter((b) => coversResource(b, resource.id));
      const key = JSON.stringify([resource.availability, closed.map((b) => b.id)]);
      let open = openByHours.get(key);
      if (!open) {
        const spans = closed.map((b) => ({ startMs: Date.parse(b.from), endMs: Date.parse(b.to) }));
        openByHours.set(key, (open = openMinutesPerPeriod(resource.availability, periods, spans)));
      }
      return open;
    };
    const rows = resources.flatMap((resource) => {
      const open = openMinutesOf(resource);
      const figures = figuresPerPeriod(bookings.get(resource.id) ?? [], boundaries);
      // A pool's open minutes are unit-minutes, as its booked minutes are (contract §21).
      return periods.map((period, i) => utilizationRowJson(resource.id, period.day, open[i]! * resource.units, figures[i]!));
    });
    const head = JSON.stringify({ from: timeJson(utcText(from), asked), to: timeJson(utcText(to), asked), timeZone }).slice(0, -1);
    res.type('application/json').send(`${head},"rows":[${rows.join(',')}]}`);
  });

  return router;
}
