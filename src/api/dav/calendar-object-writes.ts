import type { Request, Response } from 'express';
import { deleteInboxReply } from '../../commands/calendar/delete-inbox-reply.js';
import { deleteCalendarEvent, putCalendarEvent } from '../../commands/calendar/put-calendar-event.js';
import { CalendarWriteRefused, type CalendarWriteConditions } from '../../commands/calendar/calendar-write-refusal.js';
import type { CalendarEventKey } from '../../domain/calendar/invitation/calendar-event-events.js';
import { InvalidCalendarObject } from '../../domain/calendar/invitation/invalid-calendar-object.js';
import { invalidRequest, notFound } from '../../domain/domain-error.js';
import type { Services } from '../../services.js';
import type { DavCaller } from './dav-caller.js';
import type { DavPath } from './dav-paths.js';
import { DavPreconditionError, needPrivileges } from './dav-precondition.js';
import { caldav } from './xml-names.js';

/** An object name a client may choose in its bookings/ calendar: `{name}.ics`, printable, without a slash. */
const objectName = /^[^/\u0000-\u001f]{1,250}\.ics$/i;

/** The one writable place of each kind (contract §26): an object of the caller's own bookings/ (PUT, DELETE) or inbox/ (DELETE). */
function writableObject(caller: DavCaller, path: DavPath, method: string): { calendar: 'bookings' | 'inbox'; name: string; workspace: string } {
  const writable = path.kind === 'object' && path.owner.kind === 'user' && (path.calendar === 'bookings' || (path.calendar === 'inbox' && method === 'DELETE'));
  if (!writable) throw needPrivileges(`${method} is not allowed under /dav/ for this resource`);
  if (path.owner.kind !== 'user' || path.owner.user !== caller.user) throw needPrivileges("another user's calendars are not writable");
  const { workspace } = caller.principal;
  if (workspace === null) throw needPrivileges('a token without workspace has no calendar to write into');
  if (!objectName.test(path.object)) throw notFound('calendar object');
  return { calendar: path.calendar as 'bookings' | 'inbox', name: path.object, workspace };
}

const conditionsOf = (req: Request): CalendarWriteConditions => ({ ifMatch: req.get('if-match'), ifNoneMatch: req.get('if-none-match') });

/** The refusals of the write side in CalDAV's terms: a precondition element for the 403s, 412 for a failed condition. */
function davRefusal(error: unknown): unknown {
  if (error instanceof InvalidCalendarObject) return new DavPreconditionError(403, { ns: caldav, name: error.precondition }, error.message);
  if (error instanceof CalendarWriteRefused && error.precondition) return new DavPreconditionError(error.status, { ns: caldav, name: error.precondition }, error.message);
  return error;
}

async function putObject(services: Services, caller: DavCaller, key: CalendarEventKey, req: Request, res: Response, body: Buffer): Promise<void> {
  if (!/^text\/calendar\b/i.test(req.get('content-type') ?? '')) throw invalidRequest('a calendar object is text/calendar', '/body');
  const written = await putCalendarEvent(services, caller.principal, key, body.toString('utf8'), conditionsOf(req), caller.addressDomain);
  // RFC 6638 §3.2.10: the Schedule-Tag; no ETag, since the stored object differs from the one sent (RFC 4791 §5.3.4).
  if (written.scheduleTag) res.set('Schedule-Tag', `"${written.scheduleTag}"`);
  res.status(written.created ? 201 : 204).end();
}

/**
 * The writes of contract §26 under /dav/: PUT and DELETE of an event in the caller's own
 * bookings/, DELETE of a REPLY in its inbox/. Every other write is 403 DAV:need-privileges.
 */
export async function writeObject(services: Services, caller: DavCaller, path: DavPath, req: Request, res: Response, body: Buffer): Promise<void> {
  const { calendar, name, workspace } = writableObject(caller, path, req.method);
  const key: CalendarEventKey = { workspace, owner: caller.principal.sub, name };
  try {
    if (calendar === 'inbox') {
      await deleteInboxReply(services, caller.principal, workspace, name.replace(/\.ics$/i, ''));
      res.status(204).end();
    } else if (req.method === 'PUT') {
      await putObject(services, caller, key, req, res, body);
    } else {
      await deleteCalendarEvent(services, caller.principal, key, conditionsOf(req));
      res.status(204).end();
    }
  } catch (error) {
    if (error instanceof CalendarWriteRefused && error.status === 412) {
      res.status(412).end();
      return;
    }
    throw davRefusal(error);
  }
}
