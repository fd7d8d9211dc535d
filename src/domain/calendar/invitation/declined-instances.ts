import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { instantOf } from './event-time.js';
import { parseInvitation } from './parse-invitation.js';
import { tzidZones } from './tzid-zones.js';

/** Occurrences of a recurring event one room refused while it booked the rest (contract §26, schedulingConflictsAllowed). */
export type DeclinedInstances = {
  /** The room's ATTENDEE address, compared without case. */
  address: string;
  /** The room's zone, in which floating times and days were placed. */
  resourceTimeZone: string;
  /** The refused occurrences' starts, as the series expanded them. */
  starts: readonly Temporal.Instant[];
};

type Zones = ReturnType<typeof tzidZones>;

const secondText = (dateTime: Temporal.PlainDateTime) => dateTime.toString({ smallestUnit: 'second' });

/** An occurrence's start in the value type, TZID and form of the master's DTSTART (RFC 5545 §3.8.4.4), as ical.js holds it in jCal. */
function localValue(dtstart: ICAL.Property, start: Temporal.Instant, resourceTimeZone: string, zones: Zones): string {
  const tzid = dtstart.getParameter('tzid');
  const zone = typeof tzid === 'string' ? zones(tzid) : null;
  if (dtstart.type === 'date') return start.toZonedDateTimeISO(resourceTimeZone).toPlainDate().toString();
  if (String(dtstart.jCal[3]).endsWith('Z')) return start.toString({ smallestUnit: 'second' });
  if (zone?.kind === 'iana') return secondText(start.toZonedDateTimeISO(zone.timeZone).toPlainDateTime());
  if (zone?.kind === 'vtimezone') return ICAL.Time.fromJSDate(new Date(start.epochMilliseconds), true).convertToZone(zone.zone).toString();
  return secondText(start.toZonedDateTimeISO(resourceTimeZone).toPlainDateTime());
}

/** The master's length as a DURATION: whole days for a day event, else the time it lasts on the room's clock. */
function durationText(sourceText: string, resourceTimeZone: string): string {
  const { start, end } = parseInvitation(sourceText);
  if (start.kind === 'date' && end.kind === 'date') return `P${start.date.until(end.date).days}D`;
  const seconds = (instantOf(end, resourceTimeZone).epochMilliseconds - instantOf(start, resourceTimeZone).epochMilliseconds) / 1000;
  return Temporal.Duration.from({ seconds }).round({ largestUnit: 'hours' }).toString();
}

/** A copy of the master as the instance at `recurrenceId`: the same content, its own times, no recurrence of its own. */
function instanceOf(master: ICAL.Component, dtstart: ICAL.Property, value: string, duration: string): ICAL.Component {
  const instance = new ICAL.Component(structuredClone(master.jCal));
  for (const name of ['rrule', 'rdate', 'exdate', 'dtstart', 'dtend', 'duration']) instance.removeAllProperties(name);
  const parameters = dtstart.getParameter('tzid') === undefined ? {} : { tzid: dtstart.getParameter('tzid') };
  instance.addProperty(new ICAL.Property(['recurrence-id', parameters, dtstart.type, value]));
  instance.addProperty(new ICAL.Property(['dtstart', parameters, dtstart.type, value]));
  instance.addProperty(new ICAL.Property(['duration', {}, 'duration', duration]));
  return instance;
}

function decline(instance: ICAL.Component, address: string): void {
  for (const attendee of instance.getAllProperties('attendee')) {
    if (String(attendee.getFirstValue() ?? '').toLowerCase() !== address.toLowerCase()) continue;
    attendee.setParameter('partstat', 'DECLINED');
    attendee.removeParameter('x-booking-id');
  }
}

/**
 * The calendar with each refused occurrence overridden so that its room is DECLINED there: an
 * instance the organizer already overrides is answered in place, any other is added after the
 * VEVENTs as a copy of the master at that RECURRENCE-ID (the other rooms keep their answers in it).
 * `sourceText` is the text the calendar was read from.
 */
export function addDeclinedInstances(calendar: ICAL.Component, sourceText: string, declined: readonly DeclinedInstances[]): void {
  const events = calendar.getAllSubcomponents('vevent');
  const master = events.find((event) => !event.hasProperty('recurrence-id'));
  const dtstart = master?.getFirstProperty('dtstart');
  if (!master || !dtstart) return;
  const zones = tzidZones(calendar.getAllSubcomponents('vtimezone'));
  const instances = new Map(events.filter((event) => event !== master).map((event) => [String(event.getFirstProperty('recurrence-id')!.jCal[3]), event]));
  for (const { address, resourceTimeZone, starts } of declined) {
    for (const start of starts) {
      const value = localValue(dtstart, start, resourceTimeZone, zones);
      let instance = instances.get(value);
      if (!instance) {
        instance = instanceOf(master, dtstart, value, durationText(sourceText, resourceTimeZone));
        calendar.addSubcomponent(instance);
        instances.set(value, instance);
      }
      decline(instance, address);
    }
  }
}
