import { Temporal } from 'temporal-polyfill';

/** An approver's right handed to a delegate between `from` and `to` (contract §24). */
export type ApprovalDelegation = {
  id: string;
  workspace: string;
  approverProfileId: string;
  delegateProfileId: string;
  from: string;
  to: string;
  createdAt: string;
};

/** Whether the delegation holds at `now`: from ≤ now < to. */
export function isDelegationActive(delegation: Pick<ApprovalDelegation, 'from' | 'to'>, now: Temporal.Instant): boolean {
  return Temporal.Instant.compare(Temporal.Instant.from(delegation.from), now) <= 0 && Temporal.Instant.compare(now, Temporal.Instant.from(delegation.to)) < 0;
}
