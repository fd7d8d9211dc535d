import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { foldContentLines, unfoldContentLines } from '../fold-content-lines.js';
import type { RoomAnswer } from './calendar-event-events.js';
import { addDeclinedInstances, type DeclinedInstances } from './declined-instances.js';

/** RFC 6638 SCHEDULE-STATUS of an attendee the service delivers nothing to (it is no mail server). */
export const notDeliveredStatus = '5.3';

function answerAttendee(attendee: ICAL.Property, answer: RoomAnswer): void {
  attendee.setParameter('partstat', answer.partstat);
  attendee.setParameter('schedule-status', answer.scheduleStatus);
  if (answer.bookingId === null) attendee.removeParameter('x-booking-id');
  else attendee.setParameter('x-booking-id', answer.bookingId);
  attendee.removeParameter('rsvp');
}

/** Whether the server schedules the attendee (RFC 6638 §7.1: SCHEDULE-AGENT absent or SERVER). */
const scheduledByServer = (attendee: ICAL.Property): boolean => {
  const agent = attendee.getParameter('schedule-agent');
  return agent === undefined || String(agent).toUpperCase() === 'SERVER';
};

/** The occurrences each room's answer says it refused while it booked the rest of the series. */
const declinedOfAnswers = (rooms: readonly RoomAnswer[]): DeclinedInstances[] =>
  rooms.flatMap(({ address, partstat, declined }) =>
    declined && partstat !== 'DECLINED' ? [{ address, resourceTimeZone: declined.resourceTimeZone, starts: declined.starts.map((start) => Temporal.Instant.from(start)) }] : [],
  );

/**
 * The object as stored and served after the rooms answered (contract §26): the organizer's text
 * with, in the master and every overridden instance, each room's ATTENDEE carrying its PARTSTAT,
 * SCHEDULE-STATUS and X-BOOKING-ID (none without a booking) and no RSVP; every other attendee the
 * server would schedule gets SCHEDULE-STATUS=5.3 (the organizer's own ATTENDEE and those the
 * client schedules are left as written). Occurrences of a series a room refused while it booked the
 * rest (`declined`) become instances in which that room is DECLINED. Addresses compare
 * case-insensitively. A function of its arguments: the same text and answers are the same bytes,
 * CRLF, folded at 75 octets.
 */
export function storedEventText(sourceText: string, rooms: readonly RoomAnswer[], declined: readonly DeclinedInstances[] = declinedOfAnswers(rooms)): string {
  const calendar = new ICAL.Component(ICAL.parse(sourceText) as [string, [], []]);
  const answers = new Map(rooms.map((answer) => [answer.address.toLowerCase(), answer]));
  for (const event of calendar.getAllSubcomponents('vevent')) {
    const organizer = String(event.getFirstPropertyValue('organizer') ?? '').toLowerCase();
    for (const attendee of event.getAllProperties('attendee')) {
      const address = String(attendee.getFirstValue() ?? '').toLowerCase();
      const answer = answers.get(address);
      if (answer) answerAttendee(attendee, answer);
      else if (address !== organizer && scheduledByServer(attendee)) attendee.setParameter('schedule-status', notDeliveredStatus);
    }
  }
  if (declined.length > 0) addDeclinedInstances(calendar, sourceText, declined);
  return foldContentLines(unfoldContentLines(calendar.toString()));
}
