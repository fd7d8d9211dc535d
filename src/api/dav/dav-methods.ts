import type { DavPath } from './dav-paths.js';

/** The DAV header of every answer to OPTIONS under /dav/ (contract §25). */
export const davCompliance = '1, 3, access-control, calendar-access, calendar-auto-schedule';

/** Methods that write: under /dav/ only §26's are allowed, every other one is 403 DAV:need-privileges. */
export const writeMethods: ReadonlySet<string> = new Set(['PROPPATCH', 'MKCALENDAR', 'PUT', 'DELETE']);

/** §26's writes: PUT and DELETE of an event in the caller's own bookings/, DELETE of a REPLY in its inbox/ (any other path: 403). */
export const calendarWrites: ReadonlySet<string> = new Set(['PUT', 'DELETE']);

/** The methods a path answers (its Allow header); any other → 405. */
export function allowedMethods(path: DavPath): string[] {
  switch (path.kind) {
    case 'object':
      return ['OPTIONS', 'GET', 'HEAD', 'PROPFIND', 'PROPPATCH', 'PUT', 'DELETE'];
    case 'calendar':
      return ['OPTIONS', 'PROPFIND', 'REPORT', 'PROPPATCH', 'MKCALENDAR', 'DELETE', ...(path.calendar === 'outbox' ? ['POST'] : [])];
    default:
      return ['OPTIONS', 'PROPFIND', 'REPORT', 'PROPPATCH', 'MKCALENDAR'];
  }
}
