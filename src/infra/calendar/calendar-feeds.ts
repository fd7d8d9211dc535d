import type { ExpressionBuilder } from 'kysely';
import type { Level } from '../../domain/access/principal.js';
import type { CalendarFeed } from '../../domain/calendar/calendar-feed.js';
import { pageOf, type Page, type PageOf } from '../../domain/page.js';
import type { Executor } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { CalendarFeedRow } from '../db/tables/calendar-feeds.table.js';

/**
 * Feed tokens are credentials, not facts of the booking log: they live in their own table, written
 * directly (no event), and are never rebuilt from the log.
 */

const feedOf = (row: CalendarFeedRow): CalendarFeed => ({
  id: row.id,
  bookableResourceId: row.bookable_resource_id,
  owner: { sub: row.owner_sub, workspace: row.workspace, level: row.owner_level as Level, groups: row.owner_groups, email: row.owner_email },
  createdAt: row.created_at.toISOString(),
});

export async function insertCalendarFeed(db: Executor, feed: CalendarFeed, tokenHash: string): Promise<void> {
  await db
    .insertInto('calendar_feeds')
    .values({
      id: feed.id,
      workspace: feed.owner.workspace,
      owner_sub: feed.owner.sub,
      owner_level: feed.owner.level,
      owner_groups: feed.owner.groups,
      owner_email: feed.owner.email,
      bookable_resource_id: feed.bookableResourceId,
      token_hash: tokenHash,
      created_at: new Date(feed.createdAt),
      revoked_at: null,
    })
    .execute();
}

/** The live (not revoked) feed of this token hash, or null. */
export async function findLiveCalendarFeed(db: Executor, tokenHash: string): Promise<CalendarFeed | null> {
  const row = await db.selectFrom('calendar_feeds').selectAll().where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
  return row ? feedOf(row) : null;
}

/** Whose feeds a list or a revocation touches: the creator's, in the workspace of its token. */
export type FeedOwner = { sub: string; workspace: string | null };

const ownedBy = (owner: FeedOwner) => (eb: ExpressionBuilder<DB, 'calendar_feeds'>) =>
  eb.and([eb('owner_sub', '=', owner.sub), owner.workspace === null ? eb('workspace', 'is', null) : eb('workspace', '=', owner.workspace)]);

/** One page of the owner's live feeds, oldest first. */
export async function listCalendarFeeds(db: Executor, owner: FeedOwner, page: Page): Promise<PageOf<CalendarFeed>> {
  const base = db.selectFrom('calendar_feeds').where('revoked_at', 'is', null).where(ownedBy(owner));
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('created_at').orderBy('id').limit(page.limit).offset((page.page - 1) * page.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows.map(feedOf), Number(count.total), page);
}

/** Revokes the owner's live feed `id`; false when there is none (another's, revoked or unknown). */
export async function revokeCalendarFeed(db: Executor, owner: FeedOwner, id: string, at: Date): Promise<boolean> {
  const result = await db.updateTable('calendar_feeds').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).where(ownedBy(owner)).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
