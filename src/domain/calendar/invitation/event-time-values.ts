import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import type { EventTime } from './event-time.js';
import { invalidData, invalidResource } from './invalid-calendar-object.js';
import type { TzidZone } from './tzid-zones.js';

type Zones = (tzid: string) => TzidZone | null;

/** A wall-clock time in a body's own VTIMEZONE, as the UTC instant its rules give. */
function inVtimezone(dateTime: Temporal.PlainDateTime, zone: ICAL.Timezone): Temporal.Instant {
  const { year, month, day, hour, minute, second } = dateTime;
  const time = new ICAL.Time({ year, month, day, hour, minute, second, isDate: false }, zone);
  return Temporal.Instant.fromEpochMilliseconds(time.toUnixTime() * 1000);
}

/** One value as ical.js decodes it ('2027-01-05', '2027-01-05T09:00:00', '…Z'), checked by Temporal (ical.js does not check dates). */
function eventTimeOf(name: string, type: string, value: string, tzid: string | null, zones: Zones): EventTime {
  try {
    if (type === 'date') return { kind: 'date', date: Temporal.PlainDate.from(value, { overflow: 'reject' }) };
    if (type !== 'date-time') throw new RangeError(`a ${type} value`);
    if (value.endsWith('Z')) return { kind: 'utc', instant: Temporal.Instant.from(value) };
    const dateTime = Temporal.PlainDateTime.from(value, { overflow: 'reject' });
    if (tzid === null) return { kind: 'floating', dateTime };
    const zone = zones(tzid);
    if (!zone) throw invalidResource(`${name} names TZID "${tzid}", which is neither a VTIMEZONE of the object, nor an IANA zone, nor a Windows zone name`);
    return zone.kind === 'iana' ? { kind: 'zoned', dateTime, timeZone: zone.timeZone } : { kind: 'utc', instant: inVtimezone(dateTime, zone.zone) };
  } catch (error) {
    if (error instanceof RangeError) throw invalidData(`${name} "${value}" is not a valid date or date-time`);
    throw error;
  }
}

const tzidOf = (property: ICAL.Property): string | null => {
  const tzid = property.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : null;
};

/** The one time of a DTSTART, DTEND or RECURRENCE-ID property. */
export function eventTimeOfProperty(property: ICAL.Property, zones: Zones): EventTime {
  const name = property.name.toUpperCase();
  const values = property.jCal.slice(3);
  if (values.length !== 1 || typeof values[0] !== 'string') throw invalidResource(`${name} holds ${values.length === 1 ? 'no date-time' : `${values.length} values`}; it holds one date or date-time`);
  return eventTimeOf(name, property.type, values[0], tzidOf(property), zones);
}

/** Every time of the EXDATE or RDATE properties given (each may list several; an RDATE period counts by its start). */
export function eventTimesOfProperties(properties: readonly ICAL.Property[], zones: Zones): EventTime[] {
  return properties.flatMap((property) => {
    const name = property.name.toUpperCase();
    return property.jCal.slice(3).map((value) => {
      if (property.type === 'period' && Array.isArray(value) && typeof value[0] === 'string') return eventTimeOf(name, 'date-time', value[0], tzidOf(property), zones);
      if (typeof value !== 'string') throw invalidResource(`${name} holds a value that is not a date or date-time`);
      return eventTimeOf(name, property.type, value, tzidOf(property), zones);
    });
  });
}
