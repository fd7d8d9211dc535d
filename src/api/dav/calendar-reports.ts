import { Temporal } from 'temporal-polyfill';
import { invalidRequest } from '../../domain/domain-error.js';
import { readSyncToken, syncTokenText } from '../../domain/calendar/sync-token.js';
import { findCalendarChanges, findCalendarObjects, findCalendarObjectsById, findSyncPosition } from '../../projections/calendar/calendar-objects.js';
import { calendarObjectOf } from './calendar-object-answer.js';
import type { DavCaller } from './dav-caller.js';
import { calendarDaysAround, maxListed, tooMany, type DavCalendar } from './dav-node.js';
import { listedObjects, objectNode } from './dav-nodes.js';
import { bookingIdOfObject, davPathOfHref, objectHref } from './dav-paths.js';
import { invalidSyncToken } from './dav-precondition.js';
import type { DavResponse } from './multistatus.js';
import { propRequestOf, propstatsOf } from './propfind.js';
import { childNamed, childrenNamed, type XmlElement } from './xml-request.js';
import { caldav, dav } from './xml-names.js';

/** A report's answer: its members, and for a sync the new token. */
export type ReportAnswer = { responses: DavResponse[]; syncToken?: string };

/** An iCalendar UTC date-time of a time-range (RFC 4791 §9.9: `YYYYMMDDTHHMMSSZ`). */
export function utcDateTime(text: string, where: string): Temporal.Instant {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text.trim());
  try {
    if (!match) throw new Error();
    const [, y, mo, d, h, mi, s] = match;
    return Temporal.Instant.from(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
  } catch {
    throw invalidRequest(`${where} is a UTC date-time like 20270101T000000Z`, where);
  }
}

/**
 * The range a calendar-query asks for: its VEVENT time-range, each missing end 180 days from now
 * (contract §25); null when its filter asks for components this calendar never holds (a VTODO).
 */
function queryRange(caller: DavCaller, query: XmlElement): { from: Temporal.Instant; to: Temporal.Instant } | null {
  const around = { hours: 24 * calendarDaysAround };
  let from = caller.now.subtract(around);
  let to = caller.now.add(around);
  const calendarFilter = childNamed(childNamed(query, caldav, 'filter'), caldav, 'comp-filter');
  if (calendarFilter && calendarFilter.attributes.name?.toUpperCase() !== 'VCALENDAR') return null;
  const componentFilter = childNamed(calendarFilter, caldav, 'comp-filter');
  if (componentFilter) {
    if (componentFilter.attributes.name?.toUpperCase() !== 'VEVENT') return null;
    const range = childNamed(componentFilter, caldav, 'time-range');
    if (range?.attributes.start !== undefined) from = utcDateTime(range.attributes.start, '/body/time-range/start');
    if (range?.attributes.end !== undefined) to = utcDateTime(range.attributes.end, '/body/time-range/end');
  }
  if (Temporal.Instant.compare(to, from) <= 0) throw invalidRequest('a time-range ends after it starts', '/body/time-range');
  return { from, to };
}

/** REPORT calendar-query (RFC 4791 §7.8): the objects overlapping the range. */
export async function calendarQuery(caller: DavCaller, calendar: DavCalendar, query: XmlElement): Promise<ReportAnswer> {
  const range = queryRange(caller, query);
  if (!range || !calendar.holdsBookings) return { responses: [] };
  const rows = await findCalendarObjects(caller.db, calendar.scope, range, maxListed + 1);
  if (rows.length > maxListed) throw tooMany('calendar objects');
  const request = propRequestOf(query);
  return {
    responses: await Promise.all(
      rows.map(async (row) => {
        const node = objectNode(calendar, calendarObjectOf(caller, row, calendar.calendarResourceId));
        return { href: node.href, propstats: await propstatsOf(node, request) };
      }),
    ),
  };
}

/** REPORT calendar-multiget (RFC 4791 §7.9): the objects named, 404 for each the calendar does not hold. */
export async function calendarMultiget(caller: DavCaller, calendar: DavCalendar, query: XmlElement): Promise<ReportAnswer> {
  const asked = childrenNamed(query, dav, 'href').map((h) => h.text.trim());
  if (asked.length > maxListed) throw tooMany('hrefs');
  const idOf = (href: string) => {
    const path = davPathOfHref(href);
    if (path?.kind !== 'object' || path.calendar !== calendar.name || objectHref(path.owner, path.calendar, '') !== objectHref(calendar.owner, calendar.name, '')) return null;
    return bookingIdOfObject(path.object);
  };
  const ids = asked.map(idOf);
  const rows = calendar.holdsBookings ? await findCalendarObjectsById(caller.db, calendar.scope, ids.filter((id): id is string => id !== null)) : [];
  const byId = new Map(rows.map((row) => [row.booking.id, row]));
  const request = propRequestOf(query);
  const responses = await Promise.all(
    asked.map(async (href, i): Promise<DavResponse> => {
      const row = ids[i] ? byId.get(ids[i]) : undefined;
      if (!row) return { href, status: 404 };
      const node = objectNode(calendar, calendarObjectOf(caller, row, calendar.calendarResourceId));
      return { href: node.href, propstats: await propstatsOf(node, request) };
    }),
  );
  return { responses };
}

/**
 * REPORT sync-collection (RFC 6578, sync-level 1): with an empty token every object; with one this
 * service gave, the objects written since (new etags) and, as 404, those the calendar no longer
 * holds. The new token's position is read before the objects, so a change after it is in the next
 * answer (perhaps in this one too), never in neither. An unknown or too old token → 403
 * DAV:valid-sync-token.
 */
export async function syncCollection(caller: DavCaller, calendar: DavCalendar, query: XmlElement): Promise<ReportAnswer> {
  const level = childNamed(query, dav, 'sync-level')?.text.trim();
  if (level !== undefined && level !== '1' && level !== 'infinite') throw invalidRequest('sync-level is 1 or infinite', '/body/sync-level');
  const sent = childNamed(query, dav, 'sync-token')?.text.trim() ?? '';
  const request = propRequestOf(query);
  const { position, horizon } = await findSyncPosition(caller.db, calendar.scope);
  const syncToken = syncTokenText(position, caller.now);
  const propsOf = async (object: ReturnType<typeof calendarObjectOf>) => {
    const node = objectNode(calendar, object);
    return { href: node.href, propstats: await propstatsOf(node, request) };
  };
  if (sent === '') {
    const objects = await listedObjects(caller, calendar);
    return { responses: await Promise.all(objects.map(propsOf)), syncToken };
  }
  const reading = readSyncToken(sent, caller.now, horizon);
  if (reading.kind === 'unknown') throw invalidSyncToken('this sync token was not given out by this service');
  if (reading.kind === 'too-old') throw invalidSyncToken('this sync token is too old: list the calendar again with an empty one');
  if (!calendar.holdsBookings) return { responses: [], syncToken };
  const membersEndAfter = caller.now.subtract({ hours: 24 * calendarDaysAround });
  const changes = await findCalendarChanges(caller.db, calendar.scope, reading.position, membersEndAfter, maxListed + 1);
  if (changes.length > maxListed) throw tooMany('changes since this token');
  const responses = await Promise.all(
    changes.map((change) =>
      change.member ? propsOf(calendarObjectOf(caller, change, calendar.calendarResourceId)) : { href: objectHref(calendar.owner, calendar.name, change.booking.id), status: 404 },
    ),
  );
  return { responses, syncToken };
}
