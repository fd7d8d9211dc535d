import { Router, type Request, type Response } from 'express';
import { invalidRequest, notFound } from '../../domain/domain-error.js';
import type { Services } from '../../services.js';
import { clientHoldsOf, sendTagged } from '../conditional-get.js';
import { limitRate } from '../rate-limit.js';
import { routeReads } from '../route-reads.js';
import { calendarMultiget, calendarQuery, syncCollection, utcDateTime, type ReportAnswer } from './calendar-reports.js';
import { calendarQueryText } from './calendar-query-answers.js';
import { freeBusyQueryAnswer, outboxFreeBusyAnswer } from './free-busy-answers.js';
import { davAuthentication } from './dav-authentication.js';
import { davCallerOf, type DavCaller } from './dav-caller.js';
import { allowedMethods, calendarWrites, davCompliance, writeMethods } from './dav-methods.js';
import { writeObject } from './calendar-object-writes.js';
import { findObject, resolveCalendar, resolveNode } from './dav-nodes.js';
import { parseDavPath, type DavPath } from './dav-paths.js';
import { DavPreconditionError, davPreconditionHandler, needPrivileges } from './dav-precondition.js';
import { sendMultistatus, xmlContentType } from './multistatus.js';
import { principalPropertySearch } from './principal-search.js';
import { depthOf, propfindRequestOf, propfindResponses } from './propfind.js';
import { childNamed, parseXmlBody, readDavBody, type XmlElement } from './xml-request.js';
import { caldav, dav } from './xml-names.js';

/** Methods whose body is XML (read, counted and parsed before anything else). */
const xmlBodied: ReadonlySet<string> = new Set(['PROPFIND', 'REPORT', 'PROPPATCH', 'MKCALENDAR']);

const unsupportedReport = (name: string) => new DavPreconditionError(403, { ns: dav, name: 'supported-report' }, `${name} is not a report of this resource`);

/** REPORT free-busy-query on a resource's calendar (RFC 4791 §7.10): the range of its time-range, both ends required. */
async function freeBusyQuery(services: Services, caller: DavCaller, path: DavPath, query: XmlElement, res: Response): Promise<void> {
  if (path.kind !== 'calendar' || path.owner.kind !== 'resource' || path.calendar !== 'bookings') throw unsupportedReport('CALDAV:free-busy-query');
  const range = childNamed(query, caldav, 'time-range');
  if (range?.attributes.start === undefined || range.attributes.end === undefined) throw invalidRequest('a free-busy-query names a time-range with a start and an end', '/body/time-range');
  const start = utcDateTime(range.attributes.start, '/body/time-range/start');
  const end = utcDateTime(range.attributes.end, '/body/time-range/end');
  const text = await freeBusyQueryAnswer({ ...services, db: caller.db }, caller.principal, path.owner.resourceId, start, end);
  res.status(200).type('text/calendar; charset=utf-8').send(text);
}

/** POST of a VFREEBUSY request to the caller's own outbox (RFC 6638 §5): one schedule-response. */
async function outboxPost(services: Services, caller: DavCaller, path: DavPath, req: Request, res: Response, body: Buffer): Promise<void> {
  if (path.kind !== 'calendar' || path.owner.kind !== 'user' || path.owner.user !== caller.user || path.calendar !== 'outbox') {
    throw needPrivileges("only the caller's own outbox takes a free/busy request");
  }
  if (!/^text\/calendar\b/i.test(req.get('content-type') ?? '')) throw invalidRequest('a free/busy request is text/calendar', '/body');
  const answer = await outboxFreeBusyAnswer({ ...services, db: caller.db }, caller.principal, body.toString('utf8'));
  res.status(answer.status).type('application/xml; charset=utf-8').send(answer.body);
}

async function report(services: Services, caller: DavCaller, path: DavPath, query: XmlElement, res: Response): Promise<void> {
  const name = `${query.ns === dav ? 'DAV:' : query.ns === caldav ? 'CALDAV:' : `{${query.ns}}`}${query.name}`;
  if (query.ns === dav && query.name === 'principal-property-search') {
    if (path.kind !== 'principals' && path.kind !== 'principal-collection') throw unsupportedReport(name);
    sendMultistatus(res, await principalPropertySearch(caller, query));
    return;
  }
  if (query.ns === caldav && query.name === 'free-busy-query') return freeBusyQuery(services, caller, path, query, res);
  const reports: Record<string, (c: DavCaller, calendar: Awaited<ReturnType<typeof resolveCalendar>>, q: XmlElement) => Promise<ReportAnswer>> = {
    'CALDAV:calendar-query': calendarQuery,
    'CALDAV:calendar-multiget': calendarMultiget,
    'DAV:sync-collection': syncCollection,
  };
  const answer = reports[name];
  if (!answer || path.kind !== 'calendar') throw unsupportedReport(name);
  const calendar = await resolveCalendar(caller, path.owner, path.calendar);
  if (answer === calendarQuery) {
    res.status(207).set('Content-Type', xmlContentType).send(await calendarQueryText(caller, calendar, query));
    return;
  }
  const { responses, syncToken } = await answer(caller, calendar, query);
  sendMultistatus(res, responses, syncToken);
}

async function getObject(caller: DavCaller, path: DavPath, req: Request, res: Response): Promise<void> {
  if (path.kind !== 'object') throw notFound('calendar object');
  const calendar = await resolveCalendar(caller, path.owner, path.calendar);
  const object = await findObject(caller, calendar, path.object);
  if (!object) throw notFound('calendar object');
  const holds = clientHoldsOf(req)(object.etag);
  res.set('Cache-Control', 'private, no-cache');
  sendTagged(res, holds ? { tag: object.etag, notModified: true } : { tag: object.etag, notModified: false, body: Buffer.from(object.text) }, {
    'Content-Type': 'text/calendar; charset=utf-8',
  });
}

/**
 * CalDAV under /dav/ (contract §25), mounted before the JSON parser and the OpenAPI validator:
 * OPTIONS answers without credentials; a method outside the path's Allow is 405; then the caller
 * is signed in and rate limited, the body read (1 MiB at most) and parsed, and the method answered.
 */
export function davRouter(services: Services): Router {
  const router = Router();
  const authentication = davAuthentication(services);
  const rateLimit = limitRate(services);
  const reads = routeReads(services);

  router.use((req, res, next) => {
    const path = parseDavPath(req.path);
    if (!path) throw notFound('DAV resource');
    const allowed = allowedMethods(path);
    res.set('DAV', davCompliance).set('Allow', allowed.join(', '));
    if (req.method === 'OPTIONS') {
      res.status(200).set('Content-Length', '0').end();
      return;
    }
    if (!allowed.includes(req.method)) {
      res.status(405).json({ statusCode: 405, message: `${req.method} is not allowed here; allowed: ${allowed.join(', ')}` });
      return;
    }
    res.locals.davPath = path;
    next();
  });
  router.use(authentication, rateLimit, reads);

  router.use(async (req, res) => {
    const path = res.locals.davPath as DavPath;
    const body = await readDavBody(req);
    const xml = xmlBodied.has(req.method) ? parseXmlBody(body) : null;
    const caller = davCallerOf(res, services);
    if (calendarWrites.has(req.method)) return writeObject(services, caller, path, req, res, body);
    if (writeMethods.has(req.method)) throw needPrivileges(`${req.method} is not allowed under /dav/ for this resource`);
    switch (req.method) {
      case 'GET':
      case 'HEAD':
        return getObject(caller, path, req, res);
      case 'PROPFIND':
        return sendMultistatus(res, await propfindResponses(await resolveNode(caller, path), depthOf(req.get('depth')), propfindRequestOf(xml)));
      case 'REPORT':
        if (!xml) throw invalidRequest('a REPORT names its report in an XML body', '/body');
        return report(services, caller, path, xml, res);
      case 'POST':
        return outboxPost(services, caller, path, req, res, body);
    }
  });
  router.use(davPreconditionHandler);
  return router;
}

/** /.well-known/caldav (RFC 6764): GET and PROPFIND → 301 to /dav/; other methods 405. */
export function wellKnownCaldav(): Router {
  const router = Router();
  router.all('/.well-known/caldav', (req, res) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'PROPFIND') {
      res.redirect(301, '/dav/');
      return;
    }
    res.status(405).set('Allow', 'GET, HEAD, PROPFIND').json({ statusCode: 405, message: `${req.method} is not allowed here; allowed: GET, HEAD, PROPFIND` });
  });
  return router;
}
