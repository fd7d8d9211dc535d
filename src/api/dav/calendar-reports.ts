import { Temporal } from 'temporal-polyfill';
import { invalidRequest } from '../../domain/domain-error.js';
import { readSyncToken, syncTokenText } from '../../domain/calendar/sync-token.js';
import type { CalendarObject } from './calendar-object-answer.js';
import { calendarSyncPosition, changesSince, listedObjects, objectsInRange, objectsNamed } from './calendar-contents.js';
import type { DavCaller } from './dav-caller.js';
import { calendarDaysAround, maxListed, tooMany, type DavCalendar } from './dav-node.js';
import { objectNode } from './dav-nodes.js';
import { calendarHref, davPathOfHref, objectHref } from './dav-paths.js';
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
export function queryRange(caller: DavCaller, query: XmlElement): { from: Temporal.Instant; to: Temporal.Instant } | null {
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

/** The members of a report for these objects, each with the properties asked for. */
async function responsesOf(calendar: DavCalendar, objects: readonly CalendarObject[], query: XmlElement): Promise<DavResponse[]> {
  const request = propRequestOf(query);
  return Promise.all(
    objects.map(async (object) => {
      const node = objectNode(calendar, object);
      return { href: node.href, propstats: await propstatsOf(node, request) };
    }),
  );
}

/** REPORT calendar-query (RFC 4791 §7.8): the objects overlapping the range. */
export async function calendarQuery(caller: DavCaller, calendar: DavCalendar, query: XmlElement): Promise<ReportAnswer> {
  const range = queryRange(caller, query);
  if (!range) return { responses: [] };
  return { responses: await responsesOf(calendar, await objectsInRange(caller, calendar, range), query) };
}

/** REPORT calendar-multiget (RFC 4791 §7.9): the objects named, 404 for each the calendar does not hold. */
export async function calendarMultiget(caller: DavCaller, calendar: DavCalendar, query: XmlElement): Promise<ReportAnswer> {
  const asked = childrenNamed(query, dav, 'href').map((h) => h.text.trim());
  if (asked.length > maxListed) throw tooMany('hrefs');
  const nameOf = (href: string) => {
    const path = davPathOfHref(href);
    if (path?.kind !== 'object' || calendarHref(path.owner, path.calendar) !== calendarHref(calendar.owner, calendar.name)) return null;
    return path.object;
  };
  const names = asked.map(nameOf);
  const found = await objectsNamed(caller, calendar, names.filter((name): name is string => name !== null));
  const byName = new Map(found.map((object) => [object.name, object]));
  const request = propRequestOf(query);
  const responses = await Promise.all(
    asked.map(async (href, i): Promise<DavResponse> => {
      const object = names[i] ? byName.get(names[i]) : undefined;
      if (!object) return { href, status: 404 };
      const node = objectNode(calendar, object);
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
  const { position, horizon, unchangedFrom } = await calendarSyncPosition(caller, calendar);
  const syncToken = syncTokenText(position, caller.now);
  if (sent === '') return { responses: await responsesOf(calendar, await listedObjects(caller, calendar), query), syncToken };
  const reading = readSyncToken(sent, caller.now, horizon);
  if (reading.kind === 'unknown') throw invalidSyncToken('this sync token was not given out by this service');
  if (reading.kind === 'too-old') throw invalidSyncToken('this sync token is too old: list the calendar again with an empty one');
  // A client in step (its position past every change the rows show) has nothing to read.
  if (reading.position >= unchangedFrom) return { responses: [], syncToken };
  const { changed, removed } = await changesSince(caller, calendar, reading.position);
  const gone = removed.map((name): DavResponse => ({ href: objectHref(calendar.owner, calendar.name, name), status: 404 }));
  return { responses: [...(await responsesOf(calendar, changed, query)), ...gone], syncToken };
}
