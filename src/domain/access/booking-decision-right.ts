import type { Temporal } from 'temporal-polyfill';
import { isDelegationActive, type ApprovalDelegation } from '../approval/approval-delegation.js';
import type { Resource } from '../resource/resource.js';
import { canSeeWorkspace, isAdmin, type Principal } from './principal.js';

/** Who may decide (confirm, decline) a pending booking, and for whom: `onBehalfOf` names the approver a delegate acts for. */
export type DecisionRight = { onBehalfOf: string | null };

/**
 * Contract §24: LV1–LV3 of the booking's workspace; an approver of its resource (whatever its
 * level); or the delegate of such an approver while the delegation holds. `delegations` are those
 * received by the actor (others are ignored). Null when the actor holds no such right.
 */
export function bookingDecisionRight(
  actor: Principal,
  booking: { workspace: string },
  resource: Resource | null,
  delegations: readonly ApprovalDelegation[],
  now: Temporal.Instant,
): DecisionRight | null {
  if (!canSeeWorkspace(actor, booking.workspace)) return null;
  if (isAdmin(actor)) return { onBehalfOf: null };
  const approvers = resource?.bookingPolicy.approvers ?? [];
  if (approvers.includes(actor.sub)) return { onBehalfOf: null };
  const delegation = delegations.find(
    (d) => d.delegateProfileId === actor.sub && d.workspace === booking.workspace && approvers.includes(d.approverProfileId) && isDelegationActive(d, now),
  );
  return delegation ? { onBehalfOf: delegation.approverProfileId } : null;
}
