import { workspaceScope } from '../access/workspace-scope.js';
import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import { canSeeWorkspace, isWorkspaceAdmin } from '../access/principal.js';
import { forbidden, invalidRequest, notFound } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';
import { canonicalTimeZone } from '../time/time-zone.js';
import type { Quota, QuotaPeriod, QuotaUnit } from './quota.js';
import type { QuotaCreated, QuotaDeleted } from './quota-events.js';
import { utcText } from '../booking/booking-time.js';

export type CreateQuota = {
  id: string;
  /** Named in the body (LV1 any, others only their own); defaults to the token's. */
  workspace?: string;
  resourceType?: Resource['resourceType'];
  groupId?: string;
  resourceIds?: string[];
  limit: number;
  unit: QuotaUnit;
  per: QuotaPeriod;
  timeZone?: string;
};

/** Only workspace admins set quotas: LV1 anywhere, LV2 in its own workspace. */
function assertQuotaAdmin(actor: Principal): void {
  if (!isWorkspaceAdmin(actor)) throw forbidden('quotas are set by LV1 and LV2 only');
}

/**
 * Order: 400 (limit — whole for bookings —, zone, a foreign workspace) → 403 level → 404 a named resource that is not a live registration of
 * the workspace. `registered` holds the named registrations found (any workspace).
 */
export function decideCreateQuota(command: CreateQuota, registered: readonly Resource[], actor: Principal, now: Temporal.Instant): QuotaCreated {
  if (!(command.limit > 0) || !Number.isFinite(command.limit)) throw invalidRequest('limit must be greater than 0', '/body/limit');
  // Bookings are counted whole; hours are summed durations, which may fall between whole hours.
  if (command.unit === 'bookings' && !Number.isInteger(command.limit)) throw invalidRequest('limit of a bookings quota must be a whole number', '/body/limit');
  const timeZone = command.timeZone === undefined ? 'UTC' : canonicalTimeZone(command.timeZone);
  if (!timeZone) throw invalidRequest(`timeZone: unknown time zone "${command.timeZone}"`, '/body/timeZone');
  const workspace = workspaceScope(actor, command.workspace, '/body/workspace');
  assertQuotaAdmin(actor);
  const resourceIds = command.resourceIds === undefined ? null : [...new Set(command.resourceIds)];
  for (const id of resourceIds ?? []) {
    const resource = registered.find((r) => r.id === id);
    if (!resource || resource.removed || resource.workspace !== workspace) throw notFound(`resource ${id}`);
  }
  const quota: Quota = {
    id: command.id,
    workspace,
    resourceType: command.resourceType ?? null,
    groupId: command.groupId ?? null,
    resourceIds,
    limit: command.limit,
    unit: command.unit,
    per: command.per,
    timeZone,
    createdBy: actor.sub,
    createdAt: utcText(now),
  };
  return { type: 'QuotaCreated', data: { quota } };
}

/** 404 for a quota the actor cannot see (none, deleted, another workspace), then 403 below LV2. */
export function decideDeleteQuota(quota: Quota | null, actor: Principal, now: Temporal.Instant): QuotaDeleted {
  if (!quota || !canSeeWorkspace(actor, quota.workspace)) throw notFound('quota');
  assertQuotaAdmin(actor);
  return { type: 'QuotaDeleted', data: { quota, by: actor.sub, at: utcText(now) } };
}
