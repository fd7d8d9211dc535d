import { sql, type RawBuilder } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Executor } from '../../infra/db/database.js';
import { inboxDays, type CalendarOwner } from './calendar-event-queries.js';

/**
 * The objects of a user's calendar kept as text (contract §26): the organizer's events in its
 * `bookings/` (beside its bookings) and the rooms' REPLYs in its `inbox/`, each by its name.
 */
export type StoredObjects = { kind: 'events' | 'inbox'; owner: CalendarOwner };

/** One such object: its name in the calendar, its text and strong etag. */
export type StoredObjectRow = { name: string; text: string; etag: string };

/** A row written since a sync position: still listed, or gone (a deleted event or REPLY, a REPLY past its 30 days). */
export type StoredObjectChange = StoredObjectRow & { listed: boolean };

type Source = { table: RawBuilder<unknown>; name: RawBuilder<unknown>; order: RawBuilder<unknown>; listed: (now: Temporal.Instant) => RawBuilder<unknown> };

const sources: Record<StoredObjects['kind'], Source> = {
  events: { table: sql`calendar_events`, name: sql`name`, order: sql`name`, listed: () => sql`not removed` },
  inbox: {
    table: sql`calendar_inbox`,
    name: sql`reply_id::text || '.ics'`,
    // As they came: a REPLY is a message.
    order: sql`delivered_at, changed_in, reply_id`,
    listed: (now) => sql`not removed and delivered_at > ${now.subtract({ hours: 24 * inboxDays }).toString()}::timestamptz`,
  },
};

const ownerIs = ({ workspace, owner }: CalendarOwner) => sql`workspace = ${workspace} and owner = ${owner}`;

/** The listed objects (events by name, REPLYs as they came), at most `limit`; for events, those whose span meets [from, to) when a range is given (RFC 4791 §9.9). */
export async function findStoredObjects(db: Executor, objects: StoredObjects, now: Temporal.Instant, limit: number, range?: { from: Temporal.Instant; to: Temporal.Instant }): Promise<StoredObjectRow[]> {
  const source = sources[objects.kind];
  const overlapping =
    range && objects.kind === 'events' ? sql`and start_time < ${range.to.toString()}::timestamptz and (end_time is null or end_time > ${range.from.toString()}::timestamptz)` : sql``;
  const { rows } = await sql<StoredObjectRow>`
    select ${source.name} as name, text, etag from ${source.table}
    where ${ownerIs(objects.owner)} and ${source.listed(now)} ${overlapping}
    order by ${source.order} limit ${limit}`.execute(db);
  return rows;
}

/** The listed objects among `names`. */
export async function findStoredObjectsNamed(db: Executor, objects: StoredObjects, now: Temporal.Instant, names: readonly string[]): Promise<StoredObjectRow[]> {
  if (names.length === 0) return [];
  const source = sources[objects.kind];
  const { rows } = await sql<StoredObjectRow>`
    select * from (select ${source.name} as name, text, etag from ${source.table} where ${ownerIs(objects.owner)} and ${source.listed(now)}) as o
    where name = any(${[...names]}::text[])`.execute(db);
  return rows;
}

/** The rows written by transaction `since` or later, oldest change first, at most `limit`. */
export async function findStoredObjectChanges(db: Executor, objects: StoredObjects, now: Temporal.Instant, since: bigint, limit: number): Promise<StoredObjectChange[]> {
  const source = sources[objects.kind];
  const { rows } = await sql<StoredObjectChange>`
    select ${source.name} as name, text, etag, (${source.listed(now)}) as listed from ${source.table}
    where ${ownerIs(objects.owner)} and changed_in >= ${since.toString()}::xid8
    order by changed_in limit ${limit}`.execute(db);
  return rows;
}

/** The last transaction that wrote one of the owner's rows, as SQL (a bigint, null for none): a part of the calendar's sync position. */
export function lastStoredChangeSql(objects: StoredObjects): RawBuilder<unknown> {
  const source = sources[objects.kind];
  return sql`(select changed_in::text::bigint from ${source.table} where ${ownerIs(objects.owner)} order by changed_in desc limit 1)`;
}
