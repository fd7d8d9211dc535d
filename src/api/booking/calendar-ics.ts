import ical, { ICalEventStatus } from 'ical-generator';
import type { CalendarEntry, CalendarStatus } from '../../domain/calendar/calendar-entry.js';

const statusOf: Record<CalendarStatus, ICalEventStatus> = {
  TENTATIVE: ICalEventStatus.TENTATIVE,
  CONFIRMED: ICalEventStatus.CONFIRMED,
  CANCELLED: ICalEventStatus.CANCELLED,
};

const dateOf = (instant: { epochMilliseconds: number }) => new Date(instant.epochMilliseconds);

/**
 * A feed as RFC 5545 text, written by ical-generator (escaping, UTC times, lines folded at 75
 * octets, CRLF). No METHOD: a published feed, not a scheduling message; no time zone: every time
 * is UTC. Each VEVENT names the units its booking takes (contract §21) in X-WORKSPACE-BOOKING-UNITS.
 * The text is a function of its arguments only, so equal feeds are equal bytes.
 */
export function calendarText(name: string, entries: readonly CalendarEntry[]): string {
  const calendar = ical({ name, prodId: { company: 'workspace-booking', product: 'calendar-feed', language: 'EN' } });
  for (const entry of entries) {
    calendar.createEvent({
      id: entry.uid,
      stamp: dateOf(entry.stamp),
      start: dateOf(entry.start),
      end: dateOf(entry.end),
      summary: entry.summary,
      status: statusOf[entry.status],
      sequence: entry.sequence,
      lastModified: dateOf(entry.lastModified),
      location: entry.location,
      x: [['X-WORKSPACE-BOOKING-UNITS', String(entry.units)]],
    });
  }
  // ical-generator leaves the last line without its CRLF; RFC 5545 ends every content line with one.
  return `${calendar.toString()}\r\n`;
}
