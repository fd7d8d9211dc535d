import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { invalidRequest } from '../domain-error.js';
import type { Interval } from '../resource/availability.js';

/** Contract §25: a free/busy request names at most this many attendees, over at most this many days. */
export const maxFreeBusyAttendees = 100;
export const maxFreeBusyDays = 62;

/** A VFREEBUSY METHOD:REQUEST (RFC 5546 §3.3.2) as a scheduling outbox receives it. */
export type FreeBusyRequest = {
  uid: string | null;
  organizer: string | null;
  /** The ATTENDEE addresses, in the request's order. */
  attendees: string[];
  range: Interval;
};

/** The 400 of a range that is inverted, empty or longer than maxFreeBusyDays, or null. */
export function freeBusyRangeRefusal(range: Interval): ReturnType<typeof invalidRequest> | null {
  if (Temporal.Instant.compare(range.end, range.start) <= 0) return invalidRequest('the free/busy range must end after it starts');
  if (Temporal.Instant.compare(range.end, range.start.add({ hours: 24 * maxFreeBusyDays })) > 0) {
    return invalidRequest(`the free/busy range may be at most ${maxFreeBusyDays} days long`);
  }
  return null;
}

/**
 * A DTSTART or DTEND of the request: a UTC date-time, as RFC 5546 requires of VFREEBUSY. Read from
 * the value as parsed (ical.js turns `…Z` into `YYYY-MM-DDThh:mm:ssZ` and anything else into text
 * of another shape), so a value that is no date-time, or names no real instant, is a 400.
 */
function utcInstant(component: ICAL.Component, name: 'dtstart' | 'dtend'): Temporal.Instant {
  const property = component.getFirstProperty(name);
  if (!property) throw invalidRequest(`the VFREEBUSY has no ${name.toUpperCase()}`);
  const [, , type, value] = property.toJSON() as [string, unknown, string, unknown];
  const refusal = invalidRequest(`${name.toUpperCase()} of a VFREEBUSY must be a UTC date-time (YYYYMMDDThhmmssZ)`);
  if (type !== 'date-time' || typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value)) throw refusal;
  try {
    const instant = Temporal.Instant.from(value);
    // Temporal rejects a 13th month; a 31st of a 30-day month it would clamp, so the text must come back unchanged.
    if (instant.toString() !== value) throw refusal;
    return instant;
  } catch {
    throw refusal;
  }
}

function parsed(text: string): ICAL.Component {
  try {
    const jcal = ICAL.parse(text);
    // A text of several top-level components parses to a list of them: not one calendar.
    if (!Array.isArray(jcal) || typeof jcal[0] !== 'string') throw new Error('more than one component');
    return new ICAL.Component(jcal);
  } catch (error) {
    throw invalidRequest(`the body is not one iCalendar object: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The request in `text`: one VCALENDAR with METHOD:REQUEST and a VFREEBUSY naming 1 to
 * maxFreeBusyAttendees ATTENDEEs and a UTC range of at most maxFreeBusyDays; anything else is
 * refused with a 400 saying what is wrong.
 */
export function parseFreeBusyRequest(text: string): FreeBusyRequest {
  const calendar = parsed(text);
  if (calendar.name !== 'vcalendar') throw invalidRequest(`the body is a ${calendar.name.toUpperCase()}, not a VCALENDAR`);
  const method = calendar.getFirstPropertyValue('method');
  if (typeof method !== 'string' || method.toUpperCase() !== 'REQUEST') throw invalidRequest('a free/busy request has METHOD:REQUEST');
  const vfreebusy = calendar.getFirstSubcomponent('vfreebusy');
  if (!vfreebusy) throw invalidRequest('the calendar holds no VFREEBUSY');
  const attendees = vfreebusy.getAllProperties('attendee').map((p) => String(p.getFirstValue() ?? ''));
  if (attendees.length === 0) throw invalidRequest('the VFREEBUSY names no ATTENDEE');
  if (attendees.length > maxFreeBusyAttendees) throw invalidRequest(`a free/busy request names at most ${maxFreeBusyAttendees} ATTENDEEs; this one names ${attendees.length}`);
  const range = { start: utcInstant(vfreebusy, 'dtstart'), end: utcInstant(vfreebusy, 'dtend') };
  const refusal = freeBusyRangeRefusal(range);
  if (refusal) throw refusal;
  const uid = vfreebusy.getFirstPropertyValue('uid');
  const organizer = vfreebusy.getFirstPropertyValue('organizer');
  return { uid: typeof uid === 'string' ? uid : null, organizer: typeof organizer === 'string' ? organizer : null, attendees, range };
}
