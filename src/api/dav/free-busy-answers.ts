import { randomUUID } from 'node:crypto';
import type { Temporal } from 'temporal-polyfill';
import { canSeeWorkspace, type Principal } from '../../domain/access/principal.js';
import { freeBusyCalendarText } from '../../domain/calendar/free-busy-calendar.js';
import { freeBusyRangeRefusal, parseFreeBusyRequest } from '../../domain/calendar/free-busy-request.js';
import { registrationIdOfAddress, resourceAddresses } from '../../domain/calendar/resource-address.js';
import { notFound } from '../../domain/domain-error.js';
import { freeBusy, type FreeBusyPeriod } from '../../domain/placement/free-busy.js';
import { openIntervals, type Interval } from '../../domain/resource/availability.js';
import type { Resource } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { findFreeBusyInputs, type FreeBusyInputs } from '../../projections/booking/free-busy-query.js';
import type { Services } from '../../services.js';
import { xmlEscape } from './multistatus.js';

/** What the answers read: the database (a replica's will do), the clock and the address domain. */
export type FreeBusySources = Pick<Services, 'now' | 'config'> & { db: Executor };

/** Contract §25: a resource principal exists for a caller who sees its workspace (§2), while it is active. */
const isPrincipalFor = (principal: Principal, resource: Resource) => canSeeWorkspace(principal, resource.workspace) && resource.isActive && !resource.removed;

/** Each resource's free/busy over the range; operating hours are worked out once per distinct availability. */
function periodsOf(inputs: FreeBusyInputs, range: Interval): (resource: Resource) => FreeBusyPeriod[] {
  const openings = new Map<string, Interval[]>();
  return (resource) => {
    const key = JSON.stringify(resource.availability);
    let open = openings.get(key);
    if (!open) openings.set(key, (open = openIntervals(resource.availability, range.start, range.end)));
    return freeBusy({ resource, bookings: inputs.occupying.get(resource.id) ?? [], blackouts: inputs.blackouts, range, open });
  };
}

/**
 * The body (text/calendar) of RFC 4791 §7.10's free-busy-query REPORT on the calendar of resource
 * `registrationId` over [start, end): one VFREEBUSY. A resource the caller has no principal of
 * (another workspace, unknown, removed, inactive) → DomainError not_found (404); an inverted range
 * or one over 62 days → invalid_request (400). Every level reads free/busy (§2), so no 403.
 */
export async function freeBusyQueryAnswer(services: FreeBusySources, principal: Principal, registrationId: string, start: Temporal.Instant, end: Temporal.Instant): Promise<string> {
  const range = { start, end };
  const refusal = freeBusyRangeRefusal(range);
  if (refusal) throw refusal;
  const id = registrationIdOfAddress(`urn:uuid:${registrationId}`, services.config.caldavAddressDomain);
  const inputs = id ? await findFreeBusyInputs(services.db, [id], range) : null;
  const resource = id ? inputs?.resources.get(id) : undefined;
  if (!inputs || !resource || !isPrincipalFor(principal, resource)) throw notFound('resource');
  return freeBusyCalendarText({
    uid: randomUUID(),
    stamp: services.now(),
    range,
    attendee: resourceAddresses(resource.id, services.config.caldavAddressDomain)[0],
    periods: periodsOf(inputs, range)(resource),
  });
}

const scheduleResponse = (responses: string[]) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<C:schedule-response xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">\n${responses.join('')}</C:schedule-response>\n`;

const response = (recipient: string, status: string, calendarData?: string) =>
  `  <C:response>\n    <C:recipient><D:href>${xmlEscape(recipient)}</D:href></C:recipient>\n    <C:request-status>${xmlEscape(status)}</C:request-status>\n` +
  (calendarData === undefined ? '' : `    <C:calendar-data>${xmlEscape(calendarData)}</C:calendar-data>\n`) +
  '  </C:response>\n';

/**
 * A POST of a VFREEBUSY METHOD:REQUEST to the caller's scheduling outbox (RFC 6638 §5, contract
 * §25): status 200 and a CALDAV:schedule-response (application/xml; charset=utf-8) with one
 * response per ATTENDEE in the request's order: `2.0;Success` and the VFREEBUSY METHOD:REPLY of
 * a resource the caller has a principal of, `3.7;Invalid calendar user` for any other address.
 * Input that is not such a request (not iCalendar, no VFREEBUSY, no or over 100 ATTENDEEs, a range
 * inverted or over 62 days) → DomainError invalid_request (400) saying what is wrong.
 */
export async function outboxFreeBusyAnswer(services: FreeBusySources, principal: Principal, icalText: string): Promise<{ status: 200; body: string }> {
  const request = parseFreeBusyRequest(icalText);
  const domain = services.config.caldavAddressDomain;
  const ids = request.attendees.map((address) => registrationIdOfAddress(address, domain));
  const inputs = await findFreeBusyInputs(services.db, ids.filter((id): id is string => id !== null), request.range);
  const periods = periodsOf(inputs, request.range);
  const stamp = services.now();
  const uid = request.uid ?? randomUUID();
  const responses = request.attendees.map((address, i) => {
    const id = ids[i];
    const resource = id ? inputs.resources.get(id) : undefined;
    if (!resource || !isPrincipalFor(principal, resource)) return response(address, '3.7;Invalid calendar user');
    const reply = { method: 'REPLY' as const, uid, stamp, range: request.range, organizer: request.organizer ?? undefined, attendee: address, periods: periods(resource) };
    return response(address, '2.0;Success', freeBusyCalendarText(reply));
  });
  return { status: 200, body: scheduleResponse(responses) };
}
