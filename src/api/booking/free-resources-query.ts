import { workspaceScope } from '../../domain/access/workspace-scope.js';
import { Temporal } from 'temporal-polyfill';
import { isSystemAdmin, type Principal } from '../../domain/access/principal.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import type { CreateSeries } from '../../domain/booking/series/decide-create-series.js';
import { assertRecurrenceRule, clientTimeZone } from '../../domain/booking/series/series-pattern.js';
import { DomainError, invalidRequest } from '../../domain/domain-error.js';
import type { ResourceType } from '../../domain/resource/resource.js';
import { checkUnits } from '../../domain/resource/resource-units.js';
import type { FreeResourcesQuery } from '../../projections/resource/search-free-resources.js';
import { answerZone } from './schedule-query.js';

const maxWindowHours = 168;

type RawQuery = Partial<Record<'from' | 'to' | 'tz' | 'resourceType' | 'zoneId' | 'groupId' | 'workspace' | 'recurrenceRule' | 'timeZone', string>> & {
  minCapacity?: string | number;
  units?: string | number;
  includePartial?: string | boolean;
  limit?: string | number;
};

/** The body paths the series decision names, as the query parameters that carry them here. */
const queryPathOf: Record<string, string> = {
  '/body/recurrenceRule': '/query/recurrenceRule',
  '/body/timeZone': '/query/timeZone',
  '/body/startTime': '/query/from',
  '/body/endTime': '/query/to',
};

/** A 400 of the series decision, told by the query parameter it concerns. */
export function asQueryFault(error: unknown): unknown {
  if (!(error instanceof DomainError) || error.code !== 'invalid_request' || !error.details.errors) return error;
  const errors = error.details.errors.map((e) => ({ ...e, path: queryPathOf[e.path] ?? e.path }));
  return new DomainError('invalid_request', error.message, { ...error.details, errors });
}

/** The workspace searched: the token's; LV1 names one (required), others may name only their own. */
function searchedWorkspace(actor: Principal, named: string | undefined): string {
  if (isSystemAdmin(actor)) {
    if (!named) throw invalidRequest('workspace is required for LV1 tokens', '/query/workspace');
    return named.toLowerCase();
  }
  return workspaceScope(actor, named, '/query/workspace');
}

/** GET /free-resources' query, checked (400 naming the parameter). */
export function parseFreeResourcesQuery(raw: RawQuery, actor: Principal): FreeResourcesQuery & { answerZone: string | undefined } {
  const startTime = parseClientInstant(String(raw.from), '/query/from');
  const endTime = parseClientInstant(String(raw.to), '/query/to');
  if (Temporal.Instant.compare(endTime, startTime) <= 0) throw invalidRequest('to must be after from', '/query/to');
  if (Temporal.Instant.compare(endTime, startTime.add({ hours: maxWindowHours })) > 0) {
    throw invalidRequest(`from and to may be at most ${maxWindowHours} hours (7 days) apart`, '/query/to');
  }
  const zone = answerZone(raw.tz);
  const workspace = searchedWorkspace(actor, raw.workspace);
  let series: FreeResourcesQuery['series'];
  if (raw.recurrenceRule !== undefined) {
    try {
      assertRecurrenceRule(raw.recurrenceRule);
      const command: CreateSeries = {
        parentId: 'search',
        newId: () => 'search',
        title: 'search',
        startTime,
        endTime,
        recurrenceRule: raw.recurrenceRule,
        timeZone: raw.timeZone === undefined ? undefined : clientTimeZone(raw.timeZone),
        units: raw.units === undefined ? undefined : checkUnits(Number(raw.units), '/query/units'),
      };
      series = { command, includePartial: raw.includePartial === true || raw.includePartial === 'true' };
    } catch (error) {
      throw asQueryFault(error);
    }
  }
  return {
    workspace,
    startTime,
    endTime,
    timeZone: zone ?? 'UTC',
    answerZone: zone,
    resourceType: raw.resourceType as ResourceType | undefined,
    minCapacity: raw.minCapacity === undefined ? undefined : Number(raw.minCapacity),
    zoneId: raw.zoneId,
    groupId: raw.groupId,
    limit: raw.limit === undefined ? 20 : Number(raw.limit),
    units: raw.units === undefined ? 1 : checkUnits(Number(raw.units), '/query/units'),
    series,
  };
}
