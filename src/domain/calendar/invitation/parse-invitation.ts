import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { compareEventTimes, eventTimePlus, type EventTime } from './event-time.js';
import { eventTimeOfProperty, eventTimesOfProperties } from './event-time-values.js';
import { InvalidCalendarObject, invalidData, invalidResource } from './invalid-calendar-object.js';
import { tzidZones, type TzidZone } from './tzid-zones.js';

/** RFC 6638 CALDAV:max-attendees-per-instance: ATTENDEEs one component may name. */
export const maxAttendeesPerInstance = 100;
/** VEVENTs of one object (the master and its overridden instances): what the series of §6 could use is far fewer. */
export const maxEventComponents = 1000;
/** VTIMEZONEs of one object: one per TZID used, and an event uses few. */
export const maxTimeZoneComponents = 100;
/** EXDATE and RDATE values of one VEVENT together (§6 books at most 500 occurrences). */
export const maxRecurrenceDates = 1000;

export type EventStatus = 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED' | null;

export type ScheduleAgent = 'SERVER' | 'CLIENT' | 'NONE';

export type Attendee = {
  /** The ATTENDEE value as written (`mailto:…`, `urn:uuid:…`); compared lowercased by its readers. */
  address: string;
  /** RFC 6638 SCHEDULE-AGENT: SERVER when absent; an unknown value is read as NONE (the server schedules only what it was asked to). */
  scheduleAgent: ScheduleAgent;
  commonName?: string;
};

/** An instance of a recurring event overridden by a VEVENT with its RECURRENCE-ID. */
export type InstanceOverride = {
  recurrenceId: EventTime;
  start: EventTime;
  end: EventTime;
  status: EventStatus;
  cancelled: boolean;
  /** The instance's own ATTENDEEs (a room may be added to or left out of one instance). */
  attendees: Attendee[];
};

export type InvitationRecurrence = {
  /** The RRULE value as text (`FREQ=WEEKLY;BYDAY=MO`); null for an event repeated by RDATEs alone. */
  rrule: string | null;
  exdates: EventTime[];
  rdates: EventTime[];
  overrides: InstanceOverride[];
};

/** The organizer's event of contract §26 as the rooms are decided on it. */
export type Invitation = {
  uid: string;
  summary: string;
  sequence: number;
  status: EventStatus;
  /** The ORGANIZER value as written, null when there is none. */
  organizer: string | null;
  attendees: Attendee[];
  start: EventTime;
  end: EventTime;
  recurrence: InvitationRecurrence | null;
};

type Zones = (tzid: string) => TzidZone | null;

const unsupportedComponents = new Set(['vtodo', 'vjournal', 'vfreebusy', 'vavailability', 'valarm']);

function calendarOf(text: string): ICAL.Component {
  let jcal: unknown;
  try {
    jcal = ICAL.parse(text);
  } catch (error) {
    throw invalidData(`the body is not iCalendar: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Several top-level components parse to a list of them, none to an empty list.
  if (!Array.isArray(jcal) || typeof jcal[0] !== 'string') throw invalidData('the body is not one VCALENDAR');
  const calendar = new ICAL.Component(jcal as [string, [], []]);
  if (calendar.name !== 'vcalendar') throw invalidData(`the body is a ${calendar.name.toUpperCase()}, not a VCALENDAR`);
  return calendar;
}

const textOf = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' ? value : null;
};

function statusOf(component: ICAL.Component): EventStatus {
  const status = textOf(component, 'status')?.toUpperCase();
  return status === 'CONFIRMED' || status === 'TENTATIVE' || status === 'CANCELLED' ? status : null;
}

function sequenceOf(component: ICAL.Component): number {
  const property = component.getFirstProperty('sequence');
  if (!property) return 0;
  const value = property.getFirstValue();
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidResource('SEQUENCE must be a non-negative integer');
  return value;
}

function scheduleAgentOf(property: ICAL.Property): ScheduleAgent {
  const agent = property.getParameter('schedule-agent');
  if (agent === undefined) return 'SERVER';
  const upper = String(agent).toUpperCase();
  return upper === 'SERVER' || upper === 'CLIENT' ? upper : 'NONE';
}

function attendeesOf(component: ICAL.Component): Attendee[] {
  const properties = component.getAllProperties('attendee');
  if (properties.length > maxAttendeesPerInstance) {
    throw new InvalidCalendarObject('max-attendees-per-instance', `a VEVENT names at most ${maxAttendeesPerInstance} ATTENDEEs; this one names ${properties.length}`);
  }
  return properties.map((property) => {
    const commonName = property.getParameter('cn');
    return { address: String(property.getFirstValue() ?? ''), scheduleAgent: scheduleAgentOf(property), ...(typeof commonName === 'string' ? { commonName } : {}) };
  });
}

function durationOf(property: ICAL.Property, start: EventTime): Temporal.Duration {
  const value = property.jCal[3];
  let duration: Temporal.Duration;
  try {
    duration = Temporal.Duration.from(String(value));
  } catch {
    throw invalidData(`DURATION "${String(value)}" is not a duration`);
  }
  if (duration.sign <= 0) throw invalidResource('DURATION must be positive');
  if (start.kind === 'date' && (duration.hours || duration.minutes || duration.seconds)) throw invalidResource('an all-day event (DTSTART;VALUE=DATE) lasts whole days: DURATION of days or weeks');
  return duration;
}

/** DTSTART and the end: DTEND, DTSTART + DURATION, the next day for a day, DTSTART itself for a date-time (RFC 5545 §3.6.1). */
function timesOf(component: ICAL.Component, zones: Zones): { start: EventTime; end: EventTime } {
  const startProperty = component.getFirstProperty('dtstart');
  if (!startProperty) throw invalidResource('a VEVENT has a DTSTART');
  const start = eventTimeOfProperty(startProperty, zones);
  const endProperty = component.getFirstProperty('dtend');
  const durationProperty = component.getFirstProperty('duration');
  if (endProperty && durationProperty) throw invalidResource('a VEVENT has DTEND or DURATION, not both');
  if (endProperty) {
    const end = eventTimeOfProperty(endProperty, zones);
    if ((start.kind === 'date') !== (end.kind === 'date')) throw invalidResource('DTSTART and DTEND are both dates or both date-times');
    if (compareEventTimes(end, start) <= 0) throw invalidResource('DTEND must be after DTSTART');
    return { start, end };
  }
  if (durationProperty) return { start, end: eventTimePlus(start, durationOf(durationProperty, start)) };
  return { start, end: start.kind === 'date' ? { kind: 'date', date: start.date.add({ days: 1 }) } : start };
}

function recurrenceDatesOf(component: ICAL.Component, zones: Zones): { exdates: EventTime[]; rdates: EventTime[] } {
  const exdates = component.getAllProperties('exdate');
  const rdates = component.getAllProperties('rdate');
  const count = [...exdates, ...rdates].reduce((sum, property) => sum + property.jCal.length - 3, 0);
  if (count > maxRecurrenceDates) throw invalidResource(`a VEVENT lists at most ${maxRecurrenceDates} EXDATE and RDATE values; this one lists ${count}`);
  return { exdates: eventTimesOfProperties(exdates, zones), rdates: eventTimesOfProperties(rdates, zones) };
}

/** The RRULE as text, as ical.js writes the value back (the parts in the order written). */
function ruleOf(component: ICAL.Component): string | null {
  const rules = component.getAllProperties('rrule');
  if (rules.length > 1) throw invalidResource('a VEVENT has at most one RRULE');
  return rules[0] ? ICAL.stringify.property(rules[0].jCal, ICAL.design.icalendar, true).replace(/^RRULE:/i, '') : null;
}

function overrideOf(component: ICAL.Component, zones: Zones): InstanceOverride {
  const status = statusOf(component);
  return {
    recurrenceId: eventTimeOfProperty(component.getFirstProperty('recurrence-id')!, zones),
    ...timesOf(component, zones),
    status,
    cancelled: status === 'CANCELLED',
    attendees: attendeesOf(component),
  };
}

function recurrenceOf(master: ICAL.Component, overridden: readonly ICAL.Component[], zones: Zones): InvitationRecurrence | null {
  const rrule = ruleOf(master);
  const { exdates, rdates } = recurrenceDatesOf(master, zones);
  if (rrule === null && rdates.length === 0) {
    if (overridden.length > 0) throw invalidResource('a VEVENT with RECURRENCE-ID overrides an instance of a recurring event, and the master has no RRULE or RDATE');
    return null;
  }
  const overrides = overridden.map((component) => overrideOf(component, zones));
  const ids = new Set(overrides.map((o) => JSON.stringify(o.recurrenceId)));
  if (ids.size < overrides.length) throw invalidResource('two VEVENTs override the same RECURRENCE-ID');
  return { rrule, exdates, rdates, overrides };
}

/** The VEVENTs and VTIMEZONEs, refusing what a stored object may not hold (RFC 4791 §4.1). */
function componentsOf(calendar: ICAL.Component): { events: ICAL.Component[]; vtimezones: ICAL.Component[] } {
  if (calendar.hasProperty('method')) throw invalidResource('a stored calendar object has no METHOD (RFC 4791 §4.1)');
  const components = calendar.getAllSubcomponents();
  const other = components.find((c) => c.name !== 'vevent' && c.name !== 'vtimezone');
  if (other) {
    const named = unsupportedComponents.has(other.name) ? other.name.toUpperCase() : `${other.name.toUpperCase()} component`;
    throw new InvalidCalendarObject('supported-calendar-component', `this calendar holds events (VEVENT) only, not a ${named}`);
  }
  const events = components.filter((c) => c.name === 'vevent');
  const vtimezones = components.filter((c) => c.name === 'vtimezone');
  if (events.length === 0) throw new InvalidCalendarObject('supported-calendar-component', 'the calendar holds no VEVENT');
  if (events.length > maxEventComponents) throw invalidResource(`an object holds at most ${maxEventComponents} VEVENTs (an event and its overridden instances); this one holds ${events.length}`);
  if (vtimezones.length > maxTimeZoneComponents) throw invalidResource(`an object holds at most ${maxTimeZoneComponents} VTIMEZONEs; this one holds ${vtimezones.length}`);
  return { events, vtimezones };
}

/** The one UID of the object's VEVENTs, its master (no RECURRENCE-ID) and its overridden instances. */
function masterOf(events: readonly ICAL.Component[]): { uid: string; master: ICAL.Component; overridden: ICAL.Component[] } {
  const uids = new Set(
    events.map((event) => {
      const uid = textOf(event, 'uid');
      if (uid === null || uid.trim() === '') throw invalidResource('every VEVENT has a UID');
      return uid;
    }),
  );
  if (uids.size > 1) throw invalidResource(`a calendar object holds one event: one UID, not ${uids.size}`);
  const masters = events.filter((event) => !event.hasProperty('recurrence-id'));
  if (masters.length !== 1) throw invalidResource(masters.length === 0 ? 'the object holds overridden instances (RECURRENCE-ID) without their event' : 'two VEVENTs share a UID without RECURRENCE-ID');
  return { uid: [...uids][0]!, master: masters[0]!, overridden: events.filter((event) => event !== masters[0]) };
}

/**
 * The event an organizer PUT (contract §26): one VCALENDAR with one VEVENT and its overridden
 * instances, all of one UID. Anything else is refused with the CalDAV precondition it fails.
 */
export function parseInvitation(text: string): Invitation {
  try {
    const { events, vtimezones } = componentsOf(calendarOf(text));
    for (const event of events) attendeesOf(event);
    const { uid, master, overridden } = masterOf(events);
    const zones = tzidZones(vtimezones);
    const organizer = master.getFirstProperty('organizer');
    return {
      uid,
      summary: textOf(master, 'summary') ?? '',
      sequence: sequenceOf(master),
      status: statusOf(master),
      organizer: organizer ? String(organizer.getFirstValue() ?? '') : null,
      attendees: attendeesOf(master),
      ...timesOf(master, zones),
      recurrence: recurrenceOf(master, overridden, zones),
    };
  } catch (error) {
    if (error instanceof InvalidCalendarObject) throw error;
    // ical.js reads what it parsed lazily and may fail on a value only then: still the body's fault.
    throw invalidData(`the calendar data cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
