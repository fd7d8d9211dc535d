import { notFound } from '../../domain/domain-error.js';
import { timeZoneCalendarText } from '../../domain/calendar/time-zone-component.js';
import { syncTokenText } from '../../domain/calendar/sync-token.js';
import type { CalendarScope } from '../../projections/calendar/calendar-objects.js';
import type { StoredObjects } from '../../projections/calendar/stored-calendar-objects.js';
import { calendarSyncPosition, listedObjects, objectsNamed } from './calendar-contents.js';
import type { ResourcePrincipal } from '../../projections/calendar/resource-principals.js';
import type { CalendarObject } from './calendar-object-answer.js';
import type { DavCaller } from './dav-caller.js';
import { calendarDaysAround, collection, common, maxListed, plainCollection, reports, tooMany, userOwner, type DavCalendar, type DavNode } from './dav-node.js';
import { bookingIdOfObject, calendarHref, homeHref, hrefOf, objectHref, principalHref, principalsHref, resourceCalendars, rootHref, userCalendars, type DavOwner, type DavPath } from './dav-paths.js';
import { needPrivileges } from './dav-precondition.js';
import { hrefs, property, propertiesOf } from './dav-property.js';
import { element } from './multistatus.js';
import { resourcePrincipal, userPrincipal, visibleResource, visibleResources } from './principal-nodes.js';
import { caldav, calendarServer, dav } from './xml-names.js';

export function objectNode(calendar: DavCalendar, object: CalendarObject): DavNode {
  return {
    href: objectHref(calendar.owner, calendar.name, object.name),
    properties: propertiesOf(
      property(dav, 'resourcetype', () => []),
      property(dav, 'getetag', () => [object.etag]),
      property(dav, 'getcontenttype', () => ['text/calendar; charset=utf-8; component=VEVENT']),
      property(dav, 'getcontentlength', () => [String(Buffer.byteLength(object.text))]),
      property(caldav, 'calendar-data', () => [object.text], false),
    ),
  };
}

const calendarDisplayNames: Record<string, string> = { bookings: 'Bookings', inbox: 'Inbox', outbox: 'Outbox' };

function calendarNode(caller: DavCaller, calendar: DavCalendar, resource: ResourcePrincipal | null): DavNode {
  const { owner, name } = calendar;
  let position: Promise<bigint> | undefined;
  const syncToken = async () => syncTokenText(await (position ??= calendarSyncPosition(caller, calendar).then((p) => p.position)), caller.now);
  const kind = name === 'inbox' ? element(caldav, 'schedule-inbox') : name === 'outbox' ? element(caldav, 'schedule-outbox') : element(caldav, 'calendar');
  const components = owner.kind === 'user' ? ['VEVENT', 'VFREEBUSY'] : ['VEVENT'];
  const timeZone = resource?.timeZone ?? null;
  const list = [
    ...common(caller, owner.kind === 'resource' ? ['read', 'read-free-busy'] : ['read']),
    property(dav, 'resourcetype', () => [collection(), kind]),
    property(dav, 'displayname', () => [resource ? resource.name : calendarDisplayNames[name]!]),
    property(dav, 'owner', () => hrefs(principalHref(owner))),
    property(caldav, 'supported-calendar-component-set', () => components.map((c) => element(caldav, 'comp', [], { name: c }))),
    reports([caldav, 'calendar-query'], [caldav, 'calendar-multiget'], [dav, 'sync-collection'], [caldav, 'free-busy-query']),
  ];
  if (calendar.holdsBookings || calendar.stored) {
    list.push(property(calendarServer, 'getctag', async () => [await syncToken()]), property(dav, 'sync-token', async () => [await syncToken()]));
  }
  if (timeZone) list.push(property(caldav, 'calendar-timezone', () => [timeZoneCalendarText(timeZone, caller.now)]));
  return {
    href: calendarHref(owner, name),
    properties: propertiesOf(...list),
    calendar,
    members: async () => (await listedObjects(caller, calendar)).map((object) => objectNode(calendar, object)),
  };
}

/** The scope of a user's bookings/: its own bookings, in its workspace (LV1 without one: in all). */
const ownBookings = (caller: DavCaller): CalendarScope => ({ kind: 'booker', sub: caller.principal.sub, workspace: caller.principal.workspace });

/** The objects a user's calendar keeps as text (contract §26): its events in bookings/, its REPLYs in inbox/; none without a workspace (nothing can be written there). */
function storedObjectsOf(caller: DavCaller, name: string): StoredObjects | undefined {
  const { workspace, sub } = caller.principal;
  if (workspace === null) return undefined;
  if (name === 'bookings') return { kind: 'events', owner: { workspace, owner: sub } };
  if (name === 'inbox') return { kind: 'inbox', owner: { workspace, owner: sub } };
  return undefined;
}

/** A calendar of a home whose owner is checked already. */
function calendarFor(caller: DavCaller, owner: DavOwner, name: string, resource: ResourcePrincipal | null): DavCalendar {
  if (owner.kind === 'user') {
    const stored = storedObjectsOf(caller, name);
    return { scope: ownBookings(caller), owner, name, holdsBookings: name === 'bookings', ...(stored && { stored }) };
  }
  return { scope: { kind: 'resource', resourceId: owner.resourceId }, owner, name, calendarResourceId: resource?.id ?? owner.resourceId, holdsBookings: true };
}

/** The owner of a home as the caller may see it: 403 for another user, 404 for a resource it does not see (with the resource). */
async function checkedOwner(caller: DavCaller, owner: DavOwner): Promise<{ owner: DavOwner; resource: ResourcePrincipal | null }> {
  if (owner.kind === 'user') {
    if (owner.user !== caller.user) throw needPrivileges("another user's calendars are not readable");
    return { owner, resource: null };
  }
  const resource = await visibleResource(caller, owner.resourceId);
  return { owner: { kind: 'resource', resourceId: resource.id }, resource };
}

const calendarNames = (owner: DavOwner): readonly string[] => (owner.kind === 'user' ? userCalendars : resourceCalendars);

/** The calendar a path names, with the resource it belongs to; 404 for what does not exist, 403 for another user's. */
async function calendarOf(caller: DavCaller, owner: DavOwner, name: string): Promise<{ calendar: DavCalendar; resource: ResourcePrincipal | null }> {
  const checked = await checkedOwner(caller, owner);
  if (!calendarNames(checked.owner).includes(name)) throw notFound('calendar');
  return { calendar: calendarFor(caller, checked.owner, name, checked.resource), resource: checked.resource };
}

function homeNodeFor(caller: DavCaller, owner: DavOwner, resource: ResourcePrincipal | null): DavNode {
  return plainCollection(caller, homeHref(owner), resource?.name ?? 'Calendars', async () =>
    calendarNames(owner).map((name) => calendarNode(caller, calendarFor(caller, owner, name, resource), resource)),
  );
}

async function homeNode(caller: DavCaller, owner: DavOwner): Promise<DavNode> {
  const checked = await checkedOwner(caller, owner);
  return homeNodeFor(caller, checked.owner, checked.resource);
}

/** The resource `path` names, as the caller may see it: 404 when it does not exist or is not the caller's to see. */
export async function resolveNode(caller: DavCaller, path: DavPath): Promise<DavNode> {
  switch (path.kind) {
    case 'root':
      return plainCollection(caller, rootHref, 'workspace-booking', async () => [await resolveNode(caller, { kind: 'principals' }), await resolveNode(caller, { kind: 'calendars' })]);
    case 'principals': {
      const node = plainCollection(caller, principalsHref, 'Principals', async () => [
        await resolveNode(caller, { kind: 'principal-collection', owners: 'user' }),
        await resolveNode(caller, { kind: 'principal-collection', owners: 'resource' }),
      ]);
      return { ...node, properties: new Map([...node.properties, ...propertiesOf(reports([dav, 'principal-property-search']))]) };
    }
    case 'principal-collection':
      return path.owners === 'user'
        ? plainCollection(caller, hrefOf(path), 'Users', async () => [userPrincipal(caller)])
        : plainCollection(caller, hrefOf(path), 'Resources', async () => (await visibleResources(caller)).map((r) => resourcePrincipal(caller, r)));
    case 'principal':
      if (path.owner.kind === 'user') {
        if (path.owner.user !== caller.user) throw notFound('principal');
        return userPrincipal(caller);
      }
      return resourcePrincipal(caller, await visibleResource(caller, path.owner.resourceId));
    case 'calendars':
      return plainCollection(caller, hrefOf(path), 'Calendars', async () => [await homeNode(caller, userOwner(caller))]);
    case 'home-collection':
      return plainCollection(caller, hrefOf(path), path.owners === 'user' ? 'Users' : 'Resources', async () =>
        path.owners === 'user' ? [await homeNode(caller, userOwner(caller))] : (await visibleResources(caller)).map((r) => homeNodeFor(caller, { kind: 'resource', resourceId: r.id }, r)),
      );
    case 'home':
      return homeNode(caller, path.owner);
    case 'calendar': {
      const { calendar, resource } = await calendarOf(caller, path.owner, path.calendar);
      return calendarNode(caller, calendar, resource);
    }
    case 'object': {
      const { calendar } = await calendarOf(caller, path.owner, path.calendar);
      const object = await findObject(caller, calendar, path.object);
      if (!object) throw notFound('calendar object');
      return objectNode(calendar, object);
    }
  }
}

/** One object of a calendar by its name, null when the calendar does not hold it. */
export async function findObject(caller: DavCaller, calendar: DavCalendar, name: string): Promise<CalendarObject | null> {
  const [object] = await objectsNamed(caller, calendar, [name]);
  return object ?? null;
}

/** The calendar a path names (for GET and REPORTs), its objects' own calendar for an object. */
export async function resolveCalendar(caller: DavCaller, owner: DavOwner, name: string): Promise<DavCalendar> {
  return (await calendarOf(caller, owner, name)).calendar;
}
