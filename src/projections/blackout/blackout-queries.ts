import { sql, type Selectable } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Blackout } from '../../domain/blackout/blackout.js';
import { utcTextOfEpochMs } from '../../domain/booking/booking-time.js';
import { pageOf, type Page, type PageOf } from '../../domain/page.js';
import type { Executor } from '../../infra/db/database.js';
import type { BlackoutsTable } from '../../infra/db/tables/blackouts.table.js';
import type { Booking } from '../../domain/booking/booking.js';
import type { Resource } from '../../domain/resource/resource.js';
import { rowToBooking } from '../booking/booking-row.js';
import { rowToResource } from '../resource/resource-row.js';

export function rowToBlackout(row: Selectable<BlackoutsTable>): Blackout {
  return {
    id: row.id,
    workspace: row.workspace,
    resourceIds: row.resource_ids,
    from: utcTextOfEpochMs(new Date(row.from_time).getTime()),
    to: utcTextOfEpochMs(new Date(row.to_time).getTime()),
    reason: row.reason,
    createdBy: row.created_by,
    createdAt: utcTextOfEpochMs(new Date(row.created_at).getTime()),
  };
}

/** The blackouts' period, as the index over (workspace, period) holds it. */
const period = sql`tstzrange(from_time, to_time, '[)')`;

const overlapping = (from: Temporal.Instant, to: Temporal.Instant) =>
  sql<boolean>`${period} && tstzrange(${from.toString()}::timestamptz, ${to.toString()}::timestamptz, '[)')`;

/**
 * Every blackout of the workspace overlapping [from, to), whichever resources it covers (one index
 * probe): what a booking decision over any of the workspace's resources needs (blackoutRefusal picks).
 */
export async function findBlackoutsOverlapping(db: Executor, workspace: string, from: Temporal.Instant, to: Temporal.Instant): Promise<Blackout[]> {
  if (from.epochMilliseconds >= to.epochMilliseconds) return [];
  const rows = await db.selectFrom('blackouts').selectAll().where('workspace', '=', workspace).where(overlapping(from, to)).orderBy('from_time').orderBy('id').execute();
  return rows.map(rowToBlackout);
}

/** The workspace's blackouts that may overlap any of the slots (those over the slots' whole span). */
export async function findBlackoutsOverlappingAny(db: Executor, workspace: string, slots: readonly { start: Temporal.Instant; end: Temporal.Instant }[]): Promise<Blackout[]> {
  if (slots.length === 0) return [];
  const start = slots.reduce((min, s) => (s.start.epochMilliseconds < min.epochMilliseconds ? s.start : min), slots[0]!.start);
  const end = slots.reduce((max, s) => (s.end.epochMilliseconds > max.epochMilliseconds ? s.end : max), slots[0]!.end);
  return findBlackoutsOverlapping(db, workspace, start, end);
}

export async function findBlackout(db: Executor, id: string): Promise<Blackout | null> {
  const row = await db.selectFrom('blackouts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? rowToBlackout(row) : null;
}

export type BlackoutFilter = { workspace: string; from?: Temporal.Instant; to?: Temporal.Instant; bookableResourceId?: string };

/** A workspace's blackouts by `from`, then id; a resource matches its own and the workspace-wide ones. */
export async function listBlackouts(db: Executor, filter: BlackoutFilter, page: Page): Promise<PageOf<Blackout>> {
  const { from, to, bookableResourceId } = filter;
  const base = db
    .selectFrom('blackouts')
    .where('workspace', '=', filter.workspace)
    .$if(from !== undefined, (q) => q.where('to_time', '>', new Date(from!.epochMilliseconds)))
    .$if(to !== undefined, (q) => q.where('from_time', '<', new Date(to!.epochMilliseconds)))
    .$if(bookableResourceId !== undefined, (q) =>
      q.where((eb) => eb.or([eb('resource_ids', 'is', null), sql<boolean>`${bookableResourceId}::uuid = any(resource_ids)`])),
    );
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('from_time').orderBy('id').limit(page.limit).offset((page.page - 1) * page.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows.map(rowToBlackout), Number(count.total), page);
}

/** The registrations with these ids, removed ones included (each answers `removed`). */
export async function findResourcesByIds(db: Executor, ids: readonly string[]): Promise<Resource[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('resources').selectAll().where('id', 'in', [...ids]).execute();
  return rows.map(rowToResource);
}

/** The live registration ids of a workspace. */
export async function findWorkspaceResourceIds(db: Executor, workspace: string): Promise<string[]> {
  const rows = await db.selectFrom('resources').select('id').where('workspace', '=', workspace).where('deleted_at', 'is', null).execute();
  return rows.map((r) => r.id);
}

/** Active bookings (series parents aside) of the workspace overlapping [from, to), on the resources named (null: every one). */
export async function findActiveBookingsInBlackout(db: Executor, blackout: Blackout): Promise<Booking[]> {
  const rows = await db
    .selectFrom('bookings')
    .selectAll()
    .where('workspace', '=', blackout.workspace)
    .$if(blackout.resourceIds !== null, (q) => q.where('bookable_resource_id', 'in', blackout.resourceIds!))
    .where(sql<boolean>`booking_is_active(status, is_series_parent)`)
    .where(sql<boolean>`tstzrange(start_time, end_time, '[)') && tstzrange(${blackout.from}::timestamptz, ${blackout.to}::timestamptz, '[)')`)
    .orderBy('start_time')
    .orderBy('id')
    .execute();
  return rows.map(rowToBooking);
}
