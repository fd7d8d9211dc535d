import { Temporal } from 'temporal-polyfill';
import { pageOf, type Page, type PageOf } from '../../domain/page.js';
import type { Quota } from '../../domain/quota/quota.js';
import { periodContaining } from '../../domain/quota/quota-period.js';
import type { QuotaLedger } from '../../domain/quota/quota-refusal.js';
import { quotaUsagesAt, type CountedBooking, type QuotaUsage } from '../../domain/quota/quota-usage.js';
import type { Executor } from '../../infra/db/database.js';

/** The statuses a quota counts (contract §17). */
const countedStatuses = ['pending', 'confirmed', 'completed', 'no_show'] as const;

/** Every live quota of the workspace, oldest first. */
export async function findQuotas(db: Executor, workspace: string): Promise<Quota[]> {
  const rows = await db.selectFrom('quotas').select('quota').where('workspace', '=', workspace).orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => row.quota);
}

export async function findQuota(db: Executor, id: string): Promise<Quota | null> {
  const row = await db.selectFrom('quotas').select('quota').where('id', '=', id).executeTakeFirst();
  return row?.quota ?? null;
}

export async function listQuotas(db: Executor, workspace: string, page: Page): Promise<PageOf<Quota>> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('quotas')
      .select('quota')
      .where('workspace', '=', workspace)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.limit)
      .offset((page.page - 1) * page.limit)
      .execute(),
    db.selectFrom('quotas').select((eb) => eb.fn.countAll<string>().as('n')).where('workspace', '=', workspace).executeTakeFirstOrThrow(),
  ]);
  return pageOf(
    rows.map((row) => row.quota),
    Number(total.n),
    page,
  );
}

/**
 * The booker's bookings that count against quotas and start in [from, to), with their resources'
 * matchers; `excluding` leaves one booking out (the one being rescheduled).
 */
async function findCountedBookings(
  db: Executor,
  workspace: string,
  booker: string,
  from: Temporal.Instant,
  to: Temporal.Instant,
  excluding: string | undefined,
): Promise<CountedBooking[]> {
  const rows = await db
    .selectFrom('bookings as b')
    .innerJoin('resources as r', 'r.id', 'b.bookable_resource_id')
    .select(['b.id', 'b.start_time', 'b.end_time', 'r.id as resource_id', 'r.resource_type', 'r.group_id'])
    .where('b.workspace', '=', workspace)
    .where('b.booker_profile_id', '=', booker)
    .where('b.start_time', '>=', new Date(from.epochMilliseconds))
    .where('b.start_time', '<', new Date(to.epochMilliseconds))
    .where('b.status', 'in', countedStatuses)
    .where('b.is_series_parent', '=', false)
    .$if(excluding !== undefined, (q) => q.where('b.id', '<>', excluding!))
    .orderBy('b.start_time')
    .orderBy('b.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    resource: { id: row.resource_id, resourceType: row.resource_type, groupId: row.group_id },
    startTime: instant(row.start_time),
    endTime: instant(row.end_time),
  }));
}

const instant = (date: Date): Temporal.Instant => Temporal.Instant.fromEpochMilliseconds(date.getTime());

/**
 * The workspace's quotas and the booker's counted bookings in every quota period that contains
 * one of `instants` (the starts a decision will check). No quota: no bookings read.
 */
export async function findQuotaLedger(
  db: Executor,
  workspace: string,
  booker: string,
  instants: readonly Temporal.Instant[],
  excluding?: string,
): Promise<QuotaLedger> {
  return ledgerOfQuotas(db, await findQuotas(db, workspace), workspace, booker, instants, excluding);
}

/** The ledger of quotas already read (e.g. with a create's state). */
export async function ledgerOfQuotas(
  db: Executor,
  quotas: readonly Quota[],
  workspace: string,
  booker: string,
  instants: readonly Temporal.Instant[],
  excluding?: string,
): Promise<QuotaLedger> {
  if (quotas.length === 0 || instants.length === 0) return { quotas, counted: [] };
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  const first = instants.reduce((a, b) => (b.epochMilliseconds < a.epochMilliseconds ? b : a));
  const last = instants.reduce((a, b) => (b.epochMilliseconds > a.epochMilliseconds ? b : a));
  for (const quota of quotas) {
    from = Math.min(from, periodContaining(quota.per, quota.timeZone, first).start.epochMilliseconds);
    to = Math.max(to, periodContaining(quota.per, quota.timeZone, last).end.epochMilliseconds);
  }
  const counted = await findCountedBookings(db, workspace, booker, Temporal.Instant.fromEpochMilliseconds(from), Temporal.Instant.fromEpochMilliseconds(to), excluding);
  return { quotas, counted };
}

/**
 * Every quota of the workspace with the booker's usage in its period that contains `start`
 * (matchers included, so that a decision can tell which apply to which resource).
 */
export async function findQuotaUsages(db: Executor, workspace: string, bookerProfileId: string, start: Temporal.Instant, excluding?: string): Promise<QuotaUsage[]> {
  const ledger = await findQuotaLedger(db, workspace, bookerProfileId, [start], excluding);
  return quotaUsagesAt(ledger.quotas, ledger.counted, start);
}
