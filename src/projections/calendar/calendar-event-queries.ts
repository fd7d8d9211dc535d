import type { Temporal } from 'temporal-polyfill';
import type { CalendarEventKey, CalendarEventStored, RoomAnswer } from '../../domain/calendar/invitation/calendar-event-events.js';
import type { Executor } from '../../infra/db/database.js';
import type { CalendarEventRow } from '../../infra/db/tables/calendar-events.table.js';
import { isUuid } from '../../domain/uuid.js';

/** Whose calendar: the organizer's workspace and `sub`. */
export type CalendarOwner = Pick<CalendarEventKey, 'workspace' | 'owner'>;

/** An organizer's event as last stored (contract §26), with its key. */
export type StoredCalendarEvent = Omit<CalendarEventStored['data'], 'at' | 'by'> & {
  /** The GET answer's ETag, quoted, as If-Match sends it. */
  etag: string;
};

/** How long a REPLY stays in the inbox (contract §26). */
export const inboxDays = 30;

const storedColumns = ['name', 'uid', 'organizer_email', 'source_text', 'source_hash', 'text', 'schedule_tag', 'rooms', 'etag', 'removed'] as const;

const eventsOf = (db: Executor, { workspace, owner }: CalendarOwner) => db.selectFrom('calendar_events').select(storedColumns).where('workspace', '=', workspace).where('owner', '=', owner);

/**
 * The row under the name, removed or not (told apart here): with `removed = false` in the
 * statement, a planner without statistics reads it through the partial UID index, every live
 * event of the organizer, instead of the primary key's one row.
 */
const byName = (db: Executor, key: CalendarEventKey) => eventsOf(db, key).where('name', '=', key.name);

/** The live event holding the UID, by its partial unique index. */
const byUid = (db: Executor, owner: CalendarOwner, uid: string) => eventsOf(db, owner).where('uid', '=', uid).where('removed', '=', false);

function storedEventOf({ workspace, owner }: CalendarOwner, row: Pick<CalendarEventRow, (typeof storedColumns)[number]>): StoredCalendarEvent | null {
  if (row.removed) return null;
  return { workspace, owner, name: row.name, uid: row.uid, organizerEmail: row.organizer_email, sourceText: row.source_text, sourceHash: row.source_hash, text: row.text, scheduleTag: row.schedule_tag, rooms: row.rooms as RoomAnswer[], etag: row.etag };
}

/** The event stored under `key`; null when there is none or it was deleted. */
export async function findCalendarEvent(db: Executor, key: CalendarEventKey): Promise<StoredCalendarEvent | null> {
  const row = await byName(db, key).executeTakeFirst();
  return row ? storedEventOf(key, row) : null;
}

/** findCalendarEvent and findCalendarEventNameOfUid in one read: the event under `key`, and the name of the live event holding `uid`. */
export async function findCalendarEventAndUidHolder(db: Executor, key: CalendarEventKey, uid: string): Promise<{ stored: StoredCalendarEvent | null; uidHolder: string | null }> {
  // Two lookups, each by its own unique index: an OR of the two would scan every event of the organizer.
  const rows = await byName(db, key).unionAll(byUid(db, key, uid)).execute();
  const named = rows.find((row) => row.name === key.name);
  return { stored: named ? storedEventOf(key, named) : null, uidHolder: rows.find((row) => row.uid === uid && !row.removed)?.name ?? null };
}

/** The name of the organizer's live event with this UID, if any. */
export async function findCalendarEventNameOfUid(db: Executor, { workspace, owner }: CalendarOwner, uid: string): Promise<string | null> {
  const row = await db.selectFrom('calendar_events').select('name').where('workspace', '=', workspace).where('owner', '=', owner).where('uid', '=', uid).where('removed', '=', false).executeTakeFirst();
  return row?.name ?? null;
}

/** A REPLY the inbox lists (delivered in the last inboxDays, not deleted), with the name of the event it answers; `replyId` of the object `{replyId}.ics`. */
export async function findInboxReply(db: Executor, { workspace, owner }: CalendarOwner, replyId: string, now?: Temporal.Instant): Promise<{ name: string } | null> {
  if (!isUuid(replyId)) return null;
  let query = db
    .selectFrom('calendar_inbox')
    .select('event_name')
    .where('workspace', '=', workspace)
    .where('owner', '=', owner)
    .where('reply_id', '=', replyId)
    .where('removed', '=', false);
  if (now) query = query.where('delivered_at', '>', new Date(now.subtract({ hours: 24 * inboxDays }).epochMilliseconds));
  const row = await query.executeTakeFirst();
  return row ? { name: row.event_name } : null;
}
