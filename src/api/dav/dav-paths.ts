/**
 * The URL layout under /dav/ (contract §25, and §26's writes into the user's bookings/):
 *
 *   /dav/                                             the root (current-user-principal)
 *   /dav/principals/                                  principal-property-search
 *   /dav/principals/users/{user}/                     the caller (calendar-password username or sub)
 *   /dav/principals/resources/                        every resource the caller sees
 *   /dav/principals/resources/{registrationId}/       one resource
 *   /dav/calendars/users/{user}/                      the caller's home: bookings/, inbox/, outbox/
 *   /dav/calendars/resources/{registrationId}/        a resource's home: bookings/
 *   …/{calendar}/{name}.ics                           one object: {bookingId}.ics for a booking, else the name its writer chose (§26)
 */

/** Whose principal or home: the caller (by its path segment) or a resource (by registration id). */
export type DavOwner = { kind: 'user'; user: string } | { kind: 'resource'; resourceId: string };

export type DavPath =
  | { kind: 'root' }
  | { kind: 'principals' }
  | { kind: 'principal-collection'; owners: DavOwner['kind'] }
  | { kind: 'principal'; owner: DavOwner }
  | { kind: 'calendars' }
  | { kind: 'home-collection'; owners: DavOwner['kind'] }
  | { kind: 'home'; owner: DavOwner }
  | { kind: 'calendar'; owner: DavOwner; calendar: string }
  | { kind: 'object'; owner: DavOwner; calendar: string; object: string };

/** The calendars a home holds. */
export const userCalendars = ['bookings', 'inbox', 'outbox'] as const;
export const resourceCalendars = ['bookings'] as const;

const ownerKinds: Record<string, DavOwner['kind']> = { users: 'user', resources: 'resource' };
const ownerSegment: Record<DavOwner['kind'], string> = { user: 'users', resource: 'resources' };

const ownerOf = (kind: DavOwner['kind'], id: string): DavOwner => (kind === 'user' ? { kind, user: id } : { kind, resourceId: id });
const idOf = (owner: DavOwner) => (owner.kind === 'user' ? owner.user : owner.resourceId);

function decoded(segments: string[]): string[] | null {
  try {
    return segments.map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

/** The resource a path below /dav names (the path as express gives it, relative to /dav), or null when it names none. */
export function parseDavPath(path: string): DavPath | null {
  const segments = decoded(path.split('/').filter((s) => s !== ''));
  if (!segments || segments.some((s) => s === '' || s === '.' || s === '..')) return null;
  const [area, kindSegment, id, calendar, object, ...rest] = segments;
  if (rest.length > 0) return null;
  if (area === undefined) return { kind: 'root' };
  if (area !== 'principals' && area !== 'calendars') return null;
  if (kindSegment === undefined) return { kind: area };
  const owners = ownerKinds[kindSegment];
  if (!owners) return null;
  if (id === undefined) return { kind: area === 'principals' ? 'principal-collection' : 'home-collection', owners };
  const owner = ownerOf(owners, id);
  if (area === 'principals') return calendar === undefined ? { kind: 'principal', owner } : null;
  if (calendar === undefined) return { kind: 'home', owner };
  if (object === undefined) return { kind: 'calendar', owner, calendar };
  return { kind: 'object', owner, calendar, object };
}

const segment = (text: string) => encodeURIComponent(text);

export const rootHref = '/dav/';
export const principalsHref = '/dav/principals/';
export const principalCollectionHref = (owners: DavOwner['kind']) => `/dav/principals/${ownerSegment[owners]}/`;
export const principalHref = (owner: DavOwner) => `${principalCollectionHref(owner.kind)}${segment(idOf(owner))}/`;
export const homeHref = (owner: DavOwner) => `/dav/calendars/${ownerSegment[owner.kind]}/${segment(idOf(owner))}/`;
export const calendarHref = (owner: DavOwner, calendar: string) => `${homeHref(owner)}${segment(calendar)}/`;
export const objectHref = (owner: DavOwner, calendar: string, name: string) => `${calendarHref(owner, calendar)}${segment(name)}`;

/** The href of any path. */
export function hrefOf(path: DavPath): string {
  switch (path.kind) {
    case 'root':
      return rootHref;
    case 'principals':
      return principalsHref;
    case 'calendars':
      return '/dav/calendars/';
    case 'principal-collection':
      return principalCollectionHref(path.owners);
    case 'home-collection':
      return `/dav/calendars/${ownerSegment[path.owners]}/`;
    case 'principal':
      return principalHref(path.owner);
    case 'home':
      return homeHref(path.owner);
    case 'calendar':
      return calendarHref(path.owner, path.calendar);
    case 'object':
      return `${calendarHref(path.owner, path.calendar)}${segment(path.object)}`;
  }
}

/** The booking id of an object's name `{bookingId}.ics`, or null. */
export function bookingIdOfObject(name: string): string | null {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.ics$/i.exec(name);
  return match ? match[1]!.toLowerCase() : null;
}

/** The path of an href a client sent (absolute URL or path), relative to /dav, or null when it is not under /dav/. */
export function davPathOfHref(href: string): DavPath | null {
  let path: string;
  try {
    path = new URL(href.trim(), 'http://x').pathname;
  } catch {
    return null;
  }
  if (path !== '/dav' && !path.startsWith('/dav/')) return null;
  return parseDavPath(path.slice('/dav'.length));
}
