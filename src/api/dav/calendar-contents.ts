import type { Temporal } from 'temporal-polyfill';
import { findCalendarChanges, findCalendarObjects, findCalendarObjectsById, findSyncPosition, type SyncPosition } from '../../projections/calendar/calendar-objects.js';
import { findStoredObjectChanges, findStoredObjects, findStoredObjectsNamed, lastStoredChangeSql } from '../../projections/calendar/stored-calendar-objects.js';
import { calendarObjectOf, type CalendarObject } from './calendar-object-answer.js';
import type { DavCaller } from './dav-caller.js';
import { calendarDaysAround, maxListed, tooMany, type DavCalendar } from './dav-node.js';
import { bookingIdOfObject } from './dav-paths.js';

/**
 * What a calendar collection holds, whichever its kind: a resource's bookings; a user's own
 * bookings beside its stored events (contract §26); a user's inbox of REPLYs. Every listing, report
 * and sync reads it here, so that the kinds are told apart in one place.
 */

const bookingsOf = (caller: DavCaller, calendar: DavCalendar, rows: Awaited<ReturnType<typeof findCalendarObjects>>) =>
  rows.map((row) => calendarObjectOf(caller, row, calendar.calendarResourceId));

/** Both halves, 507 beyond maxListed in all. */
function within(objects: CalendarObject[]): CalendarObject[] {
  if (objects.length > maxListed) throw tooMany('calendar objects');
  return objects;
}

/** The objects overlapping [from, to). */
export async function objectsInRange(caller: DavCaller, calendar: DavCalendar, range: { from: Temporal.Instant; to: Temporal.Instant }): Promise<CalendarObject[]> {
  const [bookings, stored] = await Promise.all([
    calendar.holdsBookings ? findCalendarObjects(caller.db, calendar.scope, range, maxListed + 1) : [],
    calendar.stored ? findStoredObjects(caller.db, calendar.stored, caller.now, maxListed + 1, range) : [],
  ]);
  return within([...bookingsOf(caller, calendar, bookings), ...stored]);
}

/** The objects listed (PROPFIND Depth 1, a first sync): bookings ending at most 180 days ago, and every stored object. */
export function listedObjects(caller: DavCaller, calendar: DavCalendar): Promise<CalendarObject[]> {
  return objectsInRange(caller, calendar, { from: caller.now.subtract({ hours: 24 * calendarDaysAround }), to: caller.now.add({ hours: 24 * 3650 }) });
}

/** The objects among these names (multiget, GET). */
export async function objectsNamed(caller: DavCaller, calendar: DavCalendar, names: readonly string[]): Promise<CalendarObject[]> {
  const ids = names.flatMap((name) => bookingIdOfObject(name) ?? []);
  const [bookings, stored] = await Promise.all([
    calendar.holdsBookings && ids.length > 0 ? findCalendarObjectsById(caller.db, calendar.scope, ids) : [],
    calendar.stored ? findStoredObjectsNamed(caller.db, calendar.stored, caller.now, names) : [],
  ]);
  return [...bookingsOf(caller, calendar, bookings), ...stored];
}

/** Where a sync of the calendar stands now (findSyncPosition), its stored objects' changes counted. */
export function calendarSyncPosition(caller: DavCaller, calendar: DavCalendar): Promise<SyncPosition> {
  return findSyncPosition(caller.db, calendar.holdsBookings ? calendar.scope : null, calendar.stored ? [lastStoredChangeSql(calendar.stored)] : []);
}

/** What changed since a sync position: the objects the calendar holds, with their new text, and the names of those it no longer holds. */
export async function changesSince(caller: DavCaller, calendar: DavCalendar, position: bigint): Promise<{ changed: CalendarObject[]; removed: string[] }> {
  const membersEndAfter = caller.now.subtract({ hours: 24 * calendarDaysAround });
  const [bookings, stored] = await Promise.all([
    calendar.holdsBookings ? findCalendarChanges(caller.db, calendar.scope, position, membersEndAfter, maxListed + 1) : [],
    calendar.stored ? findStoredObjectChanges(caller.db, calendar.stored, caller.now, position, maxListed + 1) : [],
  ]);
  if (bookings.length + stored.length > maxListed) throw tooMany('changes since this token');
  return {
    changed: [...bookingsOf(caller, calendar, bookings.filter((c) => c.member)), ...stored.filter((s) => s.listed)],
    removed: [...bookings.filter((c) => !c.member).map((c) => `${c.booking.id}.ics`), ...stored.filter((s) => !s.listed).map((s) => s.name)],
  };
}
