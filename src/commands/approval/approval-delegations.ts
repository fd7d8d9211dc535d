import { randomUUID } from 'node:crypto';
import type { Principal } from '../../domain/access/principal.js';
import type { ApprovalDelegation } from '../../domain/approval/approval-delegation.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { approvalDelegationStreamId } from '../../domain/approval/approval-delegation-events.js';
import { decideCreateApprovalDelegation, decideDeleteApprovalDelegation } from '../../domain/approval/decide-approval-delegation.js';
import { findApprovalDelegation, isApproverIn } from '../../projections/approval/approval-delegation-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';

export type CreateApprovalDelegationInput = { delegateProfileId: string; from: string; to: string };

/** A delegation is a stream of its own (created, then maybe deleted), projected into `approval_delegations`. */
export async function createApprovalDelegation(ctx: CommandContext, actor: Principal, input: CreateApprovalDelegationInput): Promise<ApprovalDelegation> {
  const command = { id: randomUUID(), delegateProfileId: input.delegateProfileId, from: parseClientInstant(input.from, '/body/from'), to: parseClientInstant(input.to, '/body/to') };
  const { events } = await handleCommand(ctx, approvalDelegationStreamId(command.id), {
    load: (db) => (actor.workspace === null ? Promise.resolve(false) : isApproverIn(db, actor.workspace, actor.sub)),
    decide: (isApprover) => [decideCreateApprovalDelegation(command, isApprover, actor, ctx.now())],
  });
  return events[0]!.data.delegation;
}

export async function deleteApprovalDelegation(ctx: CommandContext, actor: Principal, id: string): Promise<void> {
  await handleCommand(ctx, approvalDelegationStreamId(id), {
    load: (db) => findApprovalDelegation(db, id),
    decide: (delegation) => [decideDeleteApprovalDelegation(delegation, actor, ctx.now())],
  });
}
