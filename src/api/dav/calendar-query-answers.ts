import { createHash } from 'node:crypto';
import { boundedCache } from '../../infra/cache/bounded-cache.js';
import { calendarSyncPosition } from './calendar-contents.js';
import { calendarQuery, queryRange } from './calendar-reports.js';
import type { DavCaller } from './dav-caller.js';
import { calendarDaysAround, type DavCalendar } from './dav-node.js';
import { multistatusText } from './multistatus.js';
import { caldav } from './xml-names.js';
import { childNamed, type XmlElement } from './xml-request.js';

/** An answer as sent, and the calendar's position it holds every change before (SyncPosition.unchangedFrom). */
type Answer = { unchangedFrom: bigint; text: string };

/**
 * Whole calendar-query answers of rooms' calendars, kept while the calendar's rows show no change:
 * a panel or a client reading a room's month again gets the same bytes for one small statement.
 */
const answers = boundedCache<string, Answer>('calendar-query-answers', { maxBytes: 64 * 2 ** 20, bytesOf: (value, key) => 2 * (value.text.length + key.length) + 120 });

/** Everything an answer is a function of besides the rows: the calendar, the viewer's rights, the report asked. */
function answerKey(caller: DavCaller, calendar: DavCalendar, query: XmlElement): string {
  const { sub, workspace, level, groups } = caller.principal;
  const asked = JSON.stringify([calendar.scope, calendar.owner, calendar.name, calendar.calendarResourceId ?? null, sub, workspace, level, [...groups].sort(), query]);
  return createHash('sha256').update(asked).digest('base64url');
}

/** The range the query names, both ends given: one that does not move with the clock. */
function namesItsRange(query: XmlElement): boolean {
  const range = childNamed(childNamed(childNamed(childNamed(query, caldav, 'filter'), caldav, 'comp-filter'), caldav, 'comp-filter'), caldav, 'time-range');
  return range?.attributes.start !== undefined && range.attributes.end !== undefined;
}

/**
 * REPORT calendar-query as sent (RFC 4791 §7.8). A room's calendar answers from the answers kept
 * when its position shows no change since one was made; that is exact: the position is read
 * before the rows, and an answer is kept only when no transaction that could still commit a change
 * older than it was running (horizon past the last change), so any later change moves the position.
 * Kept only for ranges the query names whose members a rename marks changed (ending within
 * calendarDaysAround), and not for a user's calendars, whose stored objects age with the clock.
 */
export async function calendarQueryText(caller: DavCaller, calendar: DavCalendar, query: XmlElement): Promise<string> {
  const range = queryRange(caller, query);
  const keepable = calendar.stored === undefined && range !== null && namesItsRange(query) && range.from.epochMilliseconds >= caller.now.epochMilliseconds - calendarDaysAround * 86_400_000;
  if (!keepable) return multistatusText((await calendarQuery(caller, calendar, query)).responses);
  const { horizon, unchangedFrom } = await calendarSyncPosition(caller, calendar);
  const key = answerKey(caller, calendar, query);
  const kept = answers.get(key, (answer) => answer.unchangedFrom === unchangedFrom);
  if (kept) return kept.text;
  const text = multistatusText((await calendarQuery(caller, calendar, query)).responses);
  if (horizon >= unchangedFrom) answers.set(key, { unchangedFrom, text });
  return text;
}
