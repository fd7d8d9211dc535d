/** The XML namespaces CalDAV speaks, and the prefixes answers declare them with. */
export const dav = 'DAV:';
export const caldav = 'urn:ietf:params:xml:ns:caldav';
export const calendarServer = 'http://calendarserver.org/ns/';
/** This service's own properties (contract §25: units, capacity). */
export const workspaceBooking = 'urn:workspace-booking';

export const prefixes: ReadonlyMap<string, string> = new Map([
  [dav, 'd'],
  [caldav, 'c'],
  [calendarServer, 'cs'],
  [workspaceBooking, 'wb'],
]);

/** A property or element name as one key, in Clark notation: `{namespace}local`. */
export const clark = (ns: string, name: string) => `{${ns}}${name}`;
