import { Temporal } from 'temporal-polyfill';
import { foldContentLines } from './fold-content-lines.js';

const offsetText = (nanoseconds: number) => {
  const minutes = Math.round(nanoseconds / 60e9);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
};

const localText = (dateTime: Temporal.PlainDateTime) =>
  `${String(dateTime.year).padStart(4, '0')}${String(dateTime.month).padStart(2, '0')}${String(dateTime.day).padStart(2, '0')}T${String(dateTime.hour).padStart(2, '0')}${String(dateTime.minute).padStart(2, '0')}${String(dateTime.second).padStart(2, '0')}`;

/**
 * A VCALENDAR holding the VTIMEZONE of an IANA zone (CalDAV's calendar-timezone property, RFC 4791
 * §5.2.2): its offset changes from the year before `now` to two years after, each as an
 * observance without a rule (RFC 5545 allows one DTSTART per change), taken from the zone rules
 * Temporal knows; a zone without changes has one STANDARD observance.
 */
export function timeZoneCalendarText(timeZone: string, now: Temporal.Instant): string {
  const year = now.toZonedDateTimeISO('UTC').year;
  let cursor = Temporal.ZonedDateTime.from({ timeZone, year: year - 1, month: 1, day: 1 });
  const end = Temporal.ZonedDateTime.from({ timeZone, year: year + 2, month: 1, day: 1 });
  const observances: string[] = [];
  for (let i = 0; i < 16; i++) {
    const next = cursor.getTimeZoneTransition('next');
    if (!next || Temporal.ZonedDateTime.compare(next, end) >= 0) break;
    const before = next.subtract({ nanoseconds: 1 }).offsetNanoseconds;
    const after = next.offsetNanoseconds;
    const kind = after > before ? 'DAYLIGHT' : 'STANDARD';
    // DTSTART is the onset in the local time of the offset it ends (RFC 5545 §3.6.5).
    const onset = next.toInstant().toZonedDateTimeISO('UTC').add({ nanoseconds: before }).toPlainDateTime();
    observances.push(`BEGIN:${kind}`, `DTSTART:${localText(onset)}`, `TZOFFSETFROM:${offsetText(before)}`, `TZOFFSETTO:${offsetText(after)}`, `END:${kind}`);
    cursor = next;
  }
  if (observances.length === 0) {
    const offset = offsetText(cursor.offsetNanoseconds);
    observances.push('BEGIN:STANDARD', 'DTSTART:19700101T000000', `TZOFFSETFROM:${offset}`, `TZOFFSETTO:${offset}`, 'END:STANDARD');
  }
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//workspace-booking//caldav//EN', 'BEGIN:VTIMEZONE', `TZID:${timeZone}`, ...observances, 'END:VTIMEZONE', 'END:VCALENDAR'];
  return foldContentLines(lines.join('\r\n'));
}
