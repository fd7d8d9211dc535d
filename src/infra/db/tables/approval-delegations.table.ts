import type { JSONColumnType } from 'kysely';
import type { ApprovalDelegation } from '../../../domain/approval/approval-delegation.js';

/** The live approval delegations (one row a delegation, the record as its events carry it). */
export type ApprovalDelegationsTable = {
  id: string;
  workspace: string;
  approver_profile_id: string;
  delegate_profile_id: string;
  valid_to: Date;
  delegation: JSONColumnType<ApprovalDelegation, string, string>;
  created_at: Date;
};
