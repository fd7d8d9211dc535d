import { administersGroup, canSeeWorkspace, isAdmin, type Principal } from '../access/principal.js';
import { forbidden, notFound } from '../domain-error.js';

/** Utilization is for administrators: LV1–LV3; users and guests are refused. */
export function assertCanReadUtilization(principal: Principal): void {
  if (!isAdmin(principal)) throw forbidden('utilization needs permission level LV3 or higher');
}

/**
 * A resource asked for by id: one of another workspace (or none) is 404 as for schedules, one of a
 * group the LV3 caller does not administer is 403.
 */
export function assertCanAnalyseResource(principal: Principal, resource: { workspace: string; groupId: string | null } | undefined): void {
  if (!resource || !canSeeWorkspace(principal, resource.workspace)) throw notFound('resource');
  if (!administersGroup(principal, resource.groupId)) {
    throw forbidden('a group admin sees the utilization of its own groups\u2019 resources only');
  }
}
