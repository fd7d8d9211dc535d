import { sql } from 'kysely';
import { pageOf, type Page, type PageOf } from '../../domain/page.js';
import { answeredEntry, type PositionedEntry, type WaitlistEntry, type WaitlistStatus } from '../../domain/waitlist/waitlist-entry.js';
import { upcastWaitlistEntry, type StoredWaitlistEntry } from '../../domain/waitlist/upcast-waitlist-entry.js';
import type { Executor } from '../../infra/db/database.js';

/** 1 + the earlier waiting entries of the resource whose times overlap; null once closed (contract §23). */
const position = sql<number | null>`case when w.status = 'waiting' then 1 + (
  select count(*) from waitlist_entries o
  where o.bookable_resource_id = w.bookable_resource_id and o.status = 'waiting' and o.queued_at < w.queued_at
    and o.start_time < w.end_time and w.start_time < o.end_time)::int end`;

const positioned = (row: { entry: StoredWaitlistEntry; position: number | null }): PositionedEntry => ({ ...answeredEntry(upcastWaitlistEntry(row.entry)), position: row.position });

export async function findWaitlistEntry(db: Executor, id: string): Promise<PositionedEntry | null> {
  const row = await db.selectFrom('waitlist_entries as w').select(['w.entry', position.as('position')]).where('w.id', '=', id).executeTakeFirst();
  return row ? positioned(row) : null;
}

/** The entry as its events carry it (no position): what a decision on it reads. */
export async function findWaitlistRecord(db: Executor, id: string): Promise<WaitlistEntry | null> {
  const row = await db.selectFrom('waitlist_entries').select('entry').where('id', '=', id).executeTakeFirst();
  return row ? upcastWaitlistEntry(row.entry) : null;
}

/** The waiting entries of a resource (those overlapping one of `within` when given), in the order they were made. */
export async function waitingEntriesOf(db: Executor, bookableResourceId: string, within?: readonly { fromMs: number; toMs: number }[]): Promise<WaitlistEntry[]> {
  if (within?.length === 0) return [];
  const rows = await db
    .selectFrom('waitlist_entries')
    .select('entry')
    .where('bookable_resource_id', '=', bookableResourceId)
    .where('status', '=', 'waiting')
    .$if(within !== undefined, (q) =>
      q.where((eb) => eb.or(within!.map((range) => eb.and([eb('start_time', '<', new Date(range.toMs)), eb('end_time', '>', new Date(range.fromMs))])))),
    )
    .orderBy('queued_at')
    .execute();
  return rows.map((row) => upcastWaitlistEntry(row.entry));
}

export type WaitlistFilter = { workspace?: string; resourceType?: string; resourceId?: string; status?: WaitlistStatus; bookerProfileId?: string };

/** One page of entries, oldest first. */
export async function listWaitlist(db: Executor, filter: WaitlistFilter, page: Page): Promise<PageOf<PositionedEntry>> {
  const base = db
    .selectFrom('waitlist_entries as w')
    .$if(filter.workspace !== undefined, (q) => q.where('w.workspace', '=', filter.workspace!))
    .$if(filter.resourceType !== undefined, (q) => q.where(sql<string>`w.entry ->> 'resourceType'`, '=', filter.resourceType!))
    .$if(filter.resourceId !== undefined, (q) => q.where(sql<string>`w.entry ->> 'resourceId'`, '=', filter.resourceId!))
    .$if(filter.status !== undefined, (q) => q.where('w.status', '=', filter.status!))
    .$if(filter.bookerProfileId !== undefined, (q) => q.where('w.booker_profile_id', '=', filter.bookerProfileId!));
  const [rows, count] = await Promise.all([
    base
      .select(['w.entry', position.as('position')])
      .orderBy('w.created_at')
      .orderBy('w.queued_at')
      .orderBy('w.id')
      .limit(page.limit)
      .offset((page.page - 1) * page.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows.map(positioned), Number(count.total), page);
}

/** Resources with a waiting entry whose start has passed by `now` (at most `limit`). */
export async function resourcesWithExpiredWaiters(db: Executor, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('waitlist_entries')
    .select('bookable_resource_id')
    .distinct()
    .where('status', '=', 'waiting')
    .where('start_time', '<=', now)
    .limit(limit)
    .execute();
  return rows.map((row) => row.bookable_resource_id);
}

/** Resources of the workspace (of `resourceIds` when given) with a waiting entry. */
export async function resourcesWithWaiters(db: Executor, workspace: string, resourceIds: readonly string[] | null): Promise<string[]> {
  if (resourceIds?.length === 0) return [];
  const rows = await db
    .selectFrom('waitlist_entries')
    .select('bookable_resource_id')
    .distinct()
    .where('status', '=', 'waiting')
    .where('workspace', '=', workspace)
    .$if(resourceIds !== null, (q) => q.where('bookable_resource_id', 'in', resourceIds!))
    .execute();
  return rows.map((row) => row.bookable_resource_id);
}

/**
 * The resources sharing one with `bookableResourceId` through `parts` (contract §22: its parts, its
 * wholes, the wholes holding one of its parts) that have waiting entries: a freeing on it may free
 * time on them too.
 */
export async function sharingResourcesWithWaiters(db: Executor, bookableResourceId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select sharing.id from unnest(sharing_resources(${bookableResourceId}::uuid)) as sharing (id)
    where exists (select 1 from waitlist_entries w where w.bookable_resource_id = sharing.id and w.status = 'waiting')
    order by sharing.id`.execute(db);
  return rows.map((row) => row.id);
}
