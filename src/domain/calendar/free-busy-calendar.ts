import ICAL from 'ical.js';
import type { Temporal } from 'temporal-polyfill';
import type { FreeBusyPeriod } from '../placement/free-busy.js';
import type { Interval } from '../resource/availability.js';
import { icalText, productId } from './ical-text.js';

/** One resource's free/busy as a VFREEBUSY (RFC 5545 §3.6.4). */
export type FreeBusyCalendar = {
  /** `REPLY` answers an outbox request (RFC 5546 §3.3.3); absent for the free-busy-query REPORT (RFC 4791 §7.10). */
  method?: 'REPLY';
  /** A REPLY's is the request's UID (RFC 5546). */
  uid: string;
  stamp: Temporal.Instant;
  range: Interval;
  /** The request's ORGANIZER, repeated in the REPLY. */
  organizer?: string;
  /** The resource's address, as it was asked for. */
  attendee: string;
  periods: readonly FreeBusyPeriod[];
};

const second = 1000;

const utcTime = (ms: number) => ICAL.Time.fromJSDate(new Date(ms), true);

/**
 * Periods in whole seconds (iCalendar has no finer unit): starts rounded down and ends up, so no
 * busy instant is shown free; periods of one type that then meet are joined.
 */
function inSeconds(periods: readonly FreeBusyPeriod[]): FreeBusyPeriod[] {
  const rounded: FreeBusyPeriod[] = [];
  const lastOfType = new Map<FreeBusyPeriod['type'], FreeBusyPeriod>();
  for (const p of periods) {
    const period = { type: p.type, startMs: Math.floor(p.startMs / second) * second, endMs: Math.ceil(p.endMs / second) * second };
    const last = lastOfType.get(p.type);
    if (last && period.startMs <= last.endMs) {
      last.endMs = Math.max(last.endMs, period.endMs);
    } else {
      rounded.push(period);
      lastOfType.set(p.type, period);
    }
  }
  return rounded;
}

/** The VCALENDAR text of one resource's free/busy: FREEBUSY;FBTYPE=… periods in UTC, in time order. */
export function freeBusyCalendarText(calendar: FreeBusyCalendar): string {
  const vcalendar = new ICAL.Component('vcalendar');
  vcalendar.addPropertyWithValue('version', '2.0');
  vcalendar.addPropertyWithValue('prodid', productId);
  if (calendar.method) vcalendar.addPropertyWithValue('method', calendar.method);
  const vfreebusy = new ICAL.Component('vfreebusy');
  vfreebusy.addPropertyWithValue('uid', calendar.uid);
  vfreebusy.addPropertyWithValue('dtstamp', utcTime(calendar.stamp.epochMilliseconds));
  vfreebusy.addPropertyWithValue('dtstart', utcTime(Math.floor(calendar.range.start.epochMilliseconds / second) * second));
  vfreebusy.addPropertyWithValue('dtend', utcTime(Math.ceil(calendar.range.end.epochMilliseconds / second) * second));
  if (calendar.organizer) vfreebusy.addPropertyWithValue('organizer', calendar.organizer);
  vfreebusy.addPropertyWithValue('attendee', calendar.attendee);
  for (const p of inSeconds(calendar.periods)) {
    const property = vfreebusy.addPropertyWithValue('freebusy', new ICAL.Period({ start: utcTime(p.startMs), end: utcTime(p.endMs) }));
    property.setParameter('fbtype', p.type);
  }
  vcalendar.addSubcomponent(vfreebusy);
  return icalText(vcalendar);
}
