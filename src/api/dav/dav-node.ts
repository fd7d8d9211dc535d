import type { CalendarScope } from '../../projections/calendar/calendar-objects.js';
import type { StoredObjects } from '../../projections/calendar/stored-calendar-objects.js';
import type { DavCaller } from './dav-caller.js';
import { principalCollectionHref, principalHref, type DavOwner } from './dav-paths.js';
import { DavPreconditionError } from './dav-precondition.js';
import { hrefs, property, propertiesOf, type DavProperties } from './dav-property.js';
import { element } from './multistatus.js';
import { caldav, dav } from './xml-names.js';

/** A resource under /dav/: its href, its properties, and for a collection its members (Depth 1). */
export type DavNode = { href: string; properties: DavProperties; members?: () => Promise<DavNode[]>; calendar?: DavCalendar };

/** What a calendar collection reads its objects from: bookings of its scope, objects kept as text (§26), or both (calendar-contents.ts). */
export type DavCalendar = { scope: CalendarScope; owner: DavOwner; name: string; calendarResourceId?: string; holdsBookings: boolean; stored?: StoredObjects };

/** Contract §25: beyond this many principals or objects in one answer, 507. */
export const maxListed = 10_000;

/** Contract §25: a calendar lists the bookings ending at most this many days ago (and without a time range, calendar-query reads as far ahead). */
export const calendarDaysAround = 180;

export const tooMany = (what: string) =>
  new DavPreconditionError(507, { ns: dav, name: 'number-of-matches-within-limits' }, `more than ${maxListed} ${what}: narrow the request (a time range, a search)`);

export const collection = () => element(dav, 'collection');
export const userOwner = (caller: DavCaller): DavOwner => ({ kind: 'user', user: caller.user });

/** Properties every resource answers: who the caller is, and what it may do here. */
export function common(caller: DavCaller, privileges: string[] = ['read']) {
  return [
    property(dav, 'current-user-principal', () => hrefs(principalHref(userOwner(caller)))),
    property(dav, 'principal-collection-set', () => hrefs(principalCollectionHref('user'), principalCollectionHref('resource')), false),
    property(dav, 'current-user-privilege-set', () => privileges.map((p) => element(dav, 'privilege', [p === 'read-free-busy' ? element(caldav, p) : element(dav, p)])), false),
  ];
}

export const reports = (...names: [string, string][]) =>
  property(dav, 'supported-report-set', () => names.map(([ns, name]) => element(dav, 'supported-report', [element(dav, 'report', [element(ns, name)])])), false);

export function plainCollection(caller: DavCaller, href: string, displayname: string, members?: () => Promise<DavNode[]>): DavNode {
  return {
    href,
    properties: propertiesOf(...common(caller), property(dav, 'resourcetype', () => [collection()]), property(dav, 'displayname', () => [displayname])),
    members,
  };
}

