import ICAL from 'ical.js';
import type { Temporal } from 'temporal-polyfill';
import { foldContentLines, unfoldContentLines } from '../fold-content-lines.js';
import { productId } from '../ical-text.js';
import type { RoomAnswer } from './calendar-event-events.js';

/** What a room's REPLY says of one event (or one instance of it). */
export type ReplySource = {
  uid: string;
  sequence: number;
  summary: string;
  /** The event's ORGANIZER as written. */
  organizer: string;
  /** The room's ATTENDEE address as the organizer wrote it. */
  attendee: string;
  partstat: RoomAnswer['partstat'];
  /** `2.0;Success`, `4.0;Event conflict. Date-time is busy.;conflict`, `3.1;Invalid property value;<policy>`… */
  requestStatus: string;
  /** The times the room decided on (its booking's, or those it refused). */
  start: Temporal.Instant;
  end: Temporal.Instant;
  stamp: Temporal.Instant;
  /** The instance answered, for an instance of a recurring event. */
  recurrenceId?: Temporal.Instant;
  /** Why, in words, when the room withdrew a booking later (a cancel's reason, a no-show): a COMMENT (RFC 5546 allows one in a REPLY). */
  comment?: string;
};

const utc = (instant: Temporal.Instant) => ICAL.Time.fromJSDate(new Date(instant.epochMilliseconds), true);

/**
 * REQUEST-STATUS is structured (RFC 5545 §3.8.8.3: statcode;statdesc[;extdata]): given to ical.js as
 * its parts, so the separating ';' stay as they are and only a part's own special characters are escaped.
 */
function requestStatusProperty(requestStatus: string): ICAL.Property {
  const [code = '', description = '', ...data] = requestStatus.split(';');
  const parts = data.length > 0 ? [code, description, data.join(';')] : [code, description];
  return new ICAL.Property(['request-status', {}, 'text', parts]);
}

/** A room's METHOD:REPLY (RFC 5546 §3.2.3) for the organizer's inbox: CRLF, folded at 75 octets, a function of its arguments. */
export function replyText(reply: ReplySource): string {
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('prodid', productId);
  calendar.addPropertyWithValue('method', 'REPLY');
  const event = new ICAL.Component('vevent');
  event.addPropertyWithValue('uid', reply.uid);
  event.addPropertyWithValue('dtstamp', utc(reply.stamp));
  event.addPropertyWithValue('sequence', reply.sequence);
  if (reply.recurrenceId) event.addPropertyWithValue('recurrence-id', utc(reply.recurrenceId));
  event.addPropertyWithValue('dtstart', utc(reply.start));
  event.addPropertyWithValue('dtend', utc(reply.end));
  event.addPropertyWithValue('summary', reply.summary);
  event.addPropertyWithValue('organizer', reply.organizer);
  event.addPropertyWithValue('attendee', reply.attendee).setParameter('partstat', reply.partstat);
  event.addProperty(requestStatusProperty(reply.requestStatus));
  if (reply.comment !== undefined) event.addPropertyWithValue('comment', reply.comment);
  calendar.addSubcomponent(event);
  return foldContentLines(unfoldContentLines(calendar.toString()));
}
