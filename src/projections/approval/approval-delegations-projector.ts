import { approvalDelegationEventTypes, type ApprovalDelegationEvent } from '../../domain/approval/approval-delegation-events.js';
import { oneAtATime } from '../../infra/event-store/project-events.js';
import type { Projector } from '../projector.js';

/** The live delegations: a creation adds the row (once, however often it is applied), a deletion drops it. */
export const approvalDelegationsProjector: Projector = {
  name: 'approval-delegations',
  tables: ['approval_delegations'],
  handles: approvalDelegationEventTypes,
  apply: oneAtATime(async (trx, recorded) => {
    const event = { type: recorded.type, data: recorded.data } as ApprovalDelegationEvent;
    const { delegation } = event.data;
    if (event.type === 'ApprovalDelegationDeleted') {
      await trx.deleteFrom('approval_delegations').where('id', '=', delegation.id).execute();
      return;
    }
    await trx
      .insertInto('approval_delegations')
      .values({
        id: delegation.id,
        workspace: delegation.workspace,
        approver_profile_id: delegation.approverProfileId,
        delegate_profile_id: delegation.delegateProfileId,
        valid_to: new Date(delegation.to),
        delegation: JSON.stringify(delegation),
        created_at: new Date(delegation.createdAt),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }),
};
