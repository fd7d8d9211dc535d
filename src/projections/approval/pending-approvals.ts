import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import { isAdmin, isSystemAdmin, type Principal } from '../../domain/access/principal.js';
import { isDelegationActive } from '../../domain/approval/approval-delegation.js';
import type { Booking } from '../../domain/booking/booking.js';
import { pageOf, type Page, type PageOf } from '../../domain/page.js';
import type { Executor } from '../../infra/db/database.js';
import { rowToBooking } from '../booking/booking-row.js';
import { findReceivedDelegations } from './approval-delegation-queries.js';

/**
 * GET /booking/v1/approvals (contract §24): the pending bookings the caller may decide, oldest
 * first — as domain/access/booking-decision-right.ts grants the right: LV1–LV3 every one of their
 * workspace (LV1 of every workspace), others those of the resources naming them, or an approver
 * whose delegation they hold now, among `approvers`.
 */
export async function listPendingApprovals(db: Executor, actor: Principal, now: Temporal.Instant, page: Page): Promise<PageOf<Booking>> {
  const delegators = isAdmin(actor)
    ? []
    : (await findReceivedDelegations(db, actor.sub, new Date(now.epochMilliseconds)))
        .filter((d) => d.workspace === actor.workspace && isDelegationActive(d, now))
        .map((d) => d.approverProfileId);
  const deciders = [actor.sub, ...delegators];
  const base = db
    .selectFrom('bookings as b')
    .innerJoin('resources as r', 'r.id', 'b.bookable_resource_id')
    .where('b.status', '=', 'pending')
    .where('b.is_series_parent', '=', false)
    .$if(!isSystemAdmin(actor), (q) => q.where('b.workspace', '=', actor.workspace!))
    .$if(!isAdmin(actor), (q) => q.where(sql<boolean>`r.booking_policy -> 'approvers' ?| ${deciders}::text[]`));
  const [rows, count] = await Promise.all([
    base.selectAll('b').orderBy('b.created_at').orderBy('b.id').limit(page.limit).offset((page.page - 1) * page.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows.map(rowToBooking), Number(count.total), page);
}
