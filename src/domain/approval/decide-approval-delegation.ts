import { Temporal } from 'temporal-polyfill';
import { canSeeWorkspace, isWorkspaceAdmin, type Principal } from '../access/principal.js';
import { utcText } from '../booking/booking-time.js';
import { forbidden, invalidRequest, notFound } from '../domain-error.js';
import type { ApprovalDelegation } from './approval-delegation.js';
import type { ApprovalDelegationCreated, ApprovalDelegationDeleted } from './approval-delegation-events.js';

export type CreateApprovalDelegation = { id: string; delegateProfileId: string; from: Temporal.Instant; to: Temporal.Instant };

/**
 * Contract §24: an approver hands its own right to a delegate for [from, to). `isApprover`: the
 * caller is named in `approvers` of a live resource of its workspace; a right the caller only
 * received (a delegate's) or never held cannot be handed on (403). Nothing is stored on a refusal.
 */
export function decideCreateApprovalDelegation(
  command: CreateApprovalDelegation,
  isApprover: boolean,
  actor: Principal,
  now: Temporal.Instant,
): ApprovalDelegationCreated {
  if (Temporal.Instant.compare(command.to, command.from) <= 0) throw invalidRequest('to must be after from', '/body/to');
  if (command.delegateProfileId === actor.sub) throw invalidRequest('a delegation names another profile than the approver', '/body/delegateProfileId');
  if (!isApprover || actor.workspace === null) {
    throw forbidden('only an approver of a resource may delegate, and only its own right (a delegate cannot delegate further)');
  }
  const delegation: ApprovalDelegation = {
    id: command.id,
    workspace: actor.workspace,
    approverProfileId: actor.sub,
    delegateProfileId: command.delegateProfileId,
    from: utcText(command.from),
    to: utcText(command.to),
    createdAt: utcText(now),
  };
  return { type: 'ApprovalDelegationCreated', data: { delegation } };
}

/** Whether the actor sees the delegation: its approver, its delegate, or LV1–LV2 of its workspace. */
export function canSeeDelegation(actor: Principal, delegation: ApprovalDelegation): boolean {
  if (!canSeeWorkspace(actor, delegation.workspace)) return false;
  return isWorkspaceAdmin(actor) || delegation.approverProfileId === actor.sub || delegation.delegateProfileId === actor.sub;
}

/** Its approver, its delegate (who gives it back) or LV1–LV2 ends a delegation; others see none (404). */
export function decideDeleteApprovalDelegation(delegation: ApprovalDelegation | null, actor: Principal, now: Temporal.Instant): ApprovalDelegationDeleted {
  if (!delegation || !canSeeDelegation(actor, delegation)) throw notFound('approval delegation');
  return { type: 'ApprovalDelegationDeleted', data: { delegation, by: actor.sub, at: utcText(now) } };
}
