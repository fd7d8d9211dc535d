import type { Temporal } from 'temporal-polyfill';
import { administersGroup, canSeeWorkspace, isAdmin, isWorkspaceAdmin, type Principal } from '../access/principal.js';
import { utcText } from '../booking/booking-time.js';
import { forbidden, notFound } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';
import type { Blackout } from './blackout.js';
import type { BlackoutDeleted } from './blackout-events.js';

export type DeleteBlackoutState = {
  blackout: Blackout | null;
  /** The resources it names (removed ones included); LV3 may delete it only when all are of its groups. */
  resources: readonly Resource[];
};

/** 404 unknown (or of another workspace) → 403 level: LV1–LV3, LV3 only for its groups' resources, the whole workspace only LV1–LV2. */
export function decideDeleteBlackout(state: DeleteBlackoutState, actor: Principal, now: Temporal.Instant): BlackoutDeleted {
  const { blackout } = state;
  if (!blackout || !canSeeWorkspace(actor, blackout.workspace)) throw notFound('blackout');
  if (!isAdmin(actor)) throw forbidden('only LV1–LV3 may delete blackouts');
  if (blackout.resourceIds === null && !isWorkspaceAdmin(actor)) throw forbidden('a blackout of the whole workspace is deleted by LV1 or LV2');
  const groupOf = new Map(state.resources.map((r) => [r.id, r.groupId]));
  if (blackout.resourceIds?.some((id) => !administersGroup(actor, groupOf.get(id) ?? null))) throw forbidden('the blackout covers resources outside your groups');
  return { type: 'BlackoutDeleted', data: { blackout, by: actor.sub, at: utcText(now) } };
}
