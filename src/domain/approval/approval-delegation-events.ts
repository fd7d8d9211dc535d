import type { ApprovalDelegation } from './approval-delegation.js';

export type ApprovalDelegationCreated = { type: 'ApprovalDelegationCreated'; data: { delegation: ApprovalDelegation } };
export type ApprovalDelegationDeleted = { type: 'ApprovalDelegationDeleted'; data: { delegation: ApprovalDelegation; by: string; at: string } };

export type ApprovalDelegationEvent = ApprovalDelegationCreated | ApprovalDelegationDeleted;

export const approvalDelegationEventTypes: ReadonlySet<string> = new Set<ApprovalDelegationEvent['type']>(['ApprovalDelegationCreated', 'ApprovalDelegationDeleted']);

/** A delegation is a stream of its own: created, then maybe deleted. */
export const approvalDelegationStreamId = (id: string) => `approval-delegation-${id}`;
