import { sql } from 'kysely';
import type { ApprovalDelegation } from '../../domain/approval/approval-delegation.js';
import { pageOf, type Page, type PageOf } from '../../domain/page.js';
import type { Executor } from '../../infra/db/database.js';

export async function findApprovalDelegation(db: Executor, id: string): Promise<ApprovalDelegation | null> {
  const row = await db.selectFrom('approval_delegations').select('delegation').where('id', '=', id).executeTakeFirst();
  return row?.delegation ?? null;
}

/** The delegations `delegate` received that have not ended by `now` (the decision checks their windows). */
export async function findReceivedDelegations(db: Executor, delegate: string, now: Date): Promise<ApprovalDelegation[]> {
  const rows = await db.selectFrom('approval_delegations').select('delegation').where('delegate_profile_id', '=', delegate).where('valid_to', '>', now).execute();
  return rows.map((row) => row.delegation);
}

/** The delegations given by any of `approvers` that have not ended by `now`. */
export async function findDelegationsOf(db: Executor, approvers: readonly string[], now: Date): Promise<ApprovalDelegation[]> {
  if (approvers.length === 0) return [];
  const rows = await db
    .selectFrom('approval_delegations')
    .select('delegation')
    .where('approver_profile_id', 'in', approvers)
    .where('valid_to', '>', now)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.delegation);
}

/** Whether `profile` is named in `approvers` of a live resource of the workspace. */
export async function isApproverIn(db: Executor, workspace: string, profile: string): Promise<boolean> {
  const row = await db
    .selectFrom('resources')
    .select(sql<number>`1`.as('one'))
    .where('workspace', '=', workspace)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`booking_policy -> 'approvers' ? ${profile}`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The caller's delegations, given and received, oldest first, in the workspace. */
export async function listDelegationsOf(db: Executor, workspace: string, profile: string, page: Page): Promise<PageOf<ApprovalDelegation>> {
  const mine = db
    .selectFrom('approval_delegations')
    .where('workspace', '=', workspace)
    .where((eb) => eb.or([eb('approver_profile_id', '=', profile), eb('delegate_profile_id', '=', profile)]));
  const [rows, total] = await Promise.all([
    mine
      .select('delegation')
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.limit)
      .offset((page.page - 1) * page.limit)
      .execute(),
    mine.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(
    rows.map((row) => row.delegation),
    Number(total.n),
    page,
  );
}
