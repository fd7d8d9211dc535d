import { createHash } from 'node:crypto';
import { isAdmin, isSystemAdmin, type Principal } from '../../domain/access/principal.js';
import { calendarEntryOf } from '../../domain/calendar/calendar-entry.js';
import { boundedCache } from '../../infra/cache/bounded-cache.js';
import type { Executor } from '../../infra/db/database.js';
import { findFeedBookings, findFeedVersion, type FeedSelection } from '../../projections/calendar/calendar-feed-bookings.js';
import type { TaggedAnswer } from '../conditional-get.js';
import { calendarText } from './calendar-ics.js';

/** The calendar's name, with the version of the row it comes from (a rename is a new answer). */
export type CalendarName = { name: string; version: string };

export type FeedRequest = {
  reader: Principal;
  selection: FeedSelection;
  calendar: CalendarName;
  /** The resource stream's revision, for a resource's feed: every write to it or its bookings moves it on. */
  streamRevision?: number;
  /** Whether the client holds this entity tag already (If-None-Match). */
  clientHolds: (tag: string) => boolean;
};

/** Everything an answer is a function of besides its rows: equal keys and row versions are equal bytes. */
const answerKey = ({ reader, selection, calendar }: FeedRequest) =>
  JSON.stringify([selection.kind, selection.kind === 'resource' ? selection.bookableResourceId : [selection.sub, selection.workspace], isSystemAdmin(reader) ? null : reader.workspace, isAdmin(reader) ? null : reader.sub, calendar.name, calendar.version]);

const entityTag = (key: string, version: { count: number; digest: string }) =>
  `"${createHash('sha1').update(`${key}|${version.count}|${version.digest}`).digest('base64url')}"`;

/** Rendered feeds by ETag: a feed read again unchanged (a second reader, a client without If-None-Match) is not rendered again. */
const rendered = boundedCache<string, Buffer>('calendar-feeds', { maxBytes: 32 * 2 ** 20, bytesOf: (body) => body.length + 64 });

/**
 * Versions of resource feeds already computed, by everything they are a function of: the answer's
 * key, the resource's stream revision and the minute the window is anchored to. A revalidation
 * within the same minute and revision then costs the resource's row, not the aggregate over its
 * bookings. Per process: another node computes its own, which is the same. (With
 * PROJECTIONS=async the read model may trail the revision for a moment; such a version stands
 * until the minute turns.)
 */
const resourceFeedVersions = boundedCache<string, { count: number; digest: string }>('calendar-feed-versions', { maxEntries: 10_000 });

/** A calendar feed (contract §18) as a conditional GET answers it: 304 after one aggregate when the client holds it. */
export async function readCalendarFeed(db: Executor, request: FeedRequest): Promise<TaggedAnswer> {
  const { reader, selection, calendar, streamRevision } = request;
  const key = answerKey(request);
  const memoKey = streamRevision === undefined ? undefined : `${key}|${streamRevision}|${selection.window.from.epochMilliseconds}`;
  let version = memoKey === undefined ? undefined : resourceFeedVersions.get(memoKey);
  if (!version) {
    version = await findFeedVersion(db, selection);
    if (memoKey !== undefined) resourceFeedVersions.set(memoKey, version);
  }
  const current = entityTag(key, version);
  if (request.clientHolds(current)) return { tag: current, notModified: true };
  const cached = rendered.get(current);
  if (cached) return { tag: current, notModified: false, body: cached };
  // The rows carry their own versions: the tag sent is the one of the rows rendered, even when a write came in between.
  const rows = await findFeedBookings(db, selection);
  const tag = entityTag(key, rows.version);
  const body = Buffer.from(calendarText(calendar.name, rows.bookings.map(({ booking, location }) => calendarEntryOf(booking, location, reader))));
  rendered.set(tag, body);
  return { tag, notModified: false, body };
}
