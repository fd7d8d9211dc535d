import ICAL from 'ical.js';
import type { Principal } from '../access/principal.js';
import { canSeeBooking } from '../booking/booking-access.js';
import type { Booking } from '../booking/booking.js';
import { sequenceOf } from '../booking/booking-sequence.js';
import { calendarEntryOf } from './calendar-entry.js';
import { foldContentLines, unfoldContentLines } from './fold-content-lines.js';

/** What a CalDAV calendar object (contract §25) is rendered from. */
export type CalendarObjectSource = {
  booking: Booking;
  /** Where it is: the resource's name, else its zone or device id (as the feed names it). */
  location: string;
  viewer: Principal;
  /** The resource whose calendar holds it: a booking of one of its parts or wholes (§22) names the resource booked in X-VIA-RESOURCE. */
  calendarResourceId?: string;
};

/**
 * Everything calendarObjectText reads of its source, as one string: two sources with the same key
 * render the same bytes (held by tests/domain/calendar/calendar-object.test.ts), so a rendered text
 * may be kept under it. The title and the booker only where the viewer may see them.
 */
export function calendarObjectKey({ booking, location, viewer, calendarResourceId }: CalendarObjectSource): string {
  const seen = canSeeBooking(viewer, booking);
  const via = calendarResourceId !== undefined && booking.bookableResourceId.toLowerCase() !== calendarResourceId.toLowerCase() ? booking.bookableResourceId : '';
  return [
    booking.id,
    booking.updatedAt,
    booking.startTime,
    booking.endTime,
    booking.status,
    sequenceOf(booking),
    booking.units,
    location,
    via,
    seen ? `1${booking.title}` : '0',
    seen ? (booking.bookerEmail ?? '') : '',
    seen ? booking.bookerProfileId : '',
  ].join('\u0000');
}

const utc = (instant: { epochMilliseconds: number }) => ICAL.Time.fromJSDate(new Date(instant.epochMilliseconds), true);

/**
 * One booking as an iCalendar object: a VCALENDAR with one VEVENT holding §18's feed content
 * (calendarEntryOf: UID, DTSTAMP, times in UTC, SUMMARY under §2's privacy, STATUS, SEQUENCE,
 * LAST-MODIFIED, LOCATION) plus ORGANIZER (the booker, only where the viewer may see who booked)
 * and X-BOOKING-ID. A function of its arguments only, so equal bookings are equal bytes and an
 * entity tag of the text changes exactly when the text does.
 */
export function calendarObjectText({ booking, location, viewer, calendarResourceId }: CalendarObjectSource): string {
  const entry = calendarEntryOf(booking, location, viewer);
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('prodid', '-//workspace-booking//caldav//EN');
  const event = new ICAL.Component('vevent');
  event.addPropertyWithValue('uid', entry.uid);
  event.addPropertyWithValue('dtstamp', utc(entry.stamp));
  event.addPropertyWithValue('dtstart', utc(entry.start));
  event.addPropertyWithValue('dtend', utc(entry.end));
  event.addPropertyWithValue('summary', entry.summary);
  event.addPropertyWithValue('status', entry.status);
  event.addPropertyWithValue('sequence', entry.sequence);
  event.addPropertyWithValue('last-modified', utc(entry.lastModified));
  event.addPropertyWithValue('location', entry.location);
  if (canSeeBooking(viewer, booking) && booking.bookerEmail) {
    const organizer = event.addPropertyWithValue('organizer', `mailto:${booking.bookerEmail}`);
    organizer.setParameter('cn', booking.bookerProfileId);
  }
  event.addPropertyWithValue('x-booking-id', booking.id);
  if (calendarResourceId !== undefined && booking.bookableResourceId.toLowerCase() !== calendarResourceId.toLowerCase()) {
    event.addPropertyWithValue('x-via-resource', booking.bookableResourceId);
  }
  event.addPropertyWithValue('x-workspace-booking-units', String(entry.units));
  calendar.addSubcomponent(event);
  // ical.js folds a continuation line at 75 octets after its leading space (76 in all): folded again here.
  return foldContentLines(unfoldContentLines(calendar.toString()));
}
