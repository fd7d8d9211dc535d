/**
 * The organizer's calendar object of contract §26 as an event stream: one stream per object name
 * in the organizer's `bookings/` calendar, appended together with the room bookings' events it
 * decides (one append over several streams), so both are written or neither.
 */

/** A room attendee's answer, as the stored event shows it and the REPLY gives it. */
export type RoomAnswer = {
  /** The ATTENDEE value as the organizer wrote it (`mailto:…` or `urn:uuid:…`), compared lowercased. */
  address: string;
  /** The bookable resource the address names; null when it names none the organizer can see (3.7). */
  resourceId: string | null;
  /** The booking the room holds for this event (accepted or tentative); null when it holds none. */
  bookingId: string | null;
  partstat: 'ACCEPTED' | 'TENTATIVE' | 'DECLINED';
  /** RFC 6638 SCHEDULE-STATUS: 1.2 delivered, 3.7 not a resource the caller can see, 3.8 the caller may not book it. */
  scheduleStatus: '1.2' | '3.7' | '3.8';
  /** The REPLY's REQUEST-STATUS: `2.0;Success`, `4.0;Event conflict. Date-time is busy.;conflict`, `3.1;Invalid property value;<policy>`. */
  requestStatus: string;
  /** A recurring event's occurrences the room refused while it booked the rest (schedulingConflictsAllowed): their starts as the series expanded them, in UTC text, and the zone floating times and days were read in. */
  declined?: { resourceTimeZone: string; starts: string[] };
};

export type CalendarEventKey = {
  workspace: string;
  /** The organizer's `sub` (the owner of the `bookings/` calendar it was PUT into). */
  owner: string;
  /** The object's name in that calendar, `{name}.ics` as the client chose it. */
  name: string;
};

/**
 * The object as stored after a PUT or after a later decision (§26 "Decisions made later"):
 * `sourceText` is the organizer's text as sent, `text` the stored object (sourceText with each
 * room's PARTSTAT, SCHEDULE-STATUS and X-BOOKING-ID), rendered again from sourceText and `rooms`
 * whenever an answer changes. `sourceHash` makes a repeated PUT of the same text change nothing.
 */
export type CalendarEventStored = {
  type: 'CalendarEventStored';
  data: CalendarEventKey & {
    uid: string;
    organizerEmail: string;
    sourceText: string;
    sourceHash: string;
    text: string;
    scheduleTag: string;
    rooms: RoomAnswer[];
    at: string;
    by: string;
  };
};

/** The object deleted by its organizer (every booking of it cancelled in the same append). */
export type CalendarEventRemoved = { type: 'CalendarEventRemoved'; data: CalendarEventKey & { uid: string; at: string; by: string } };

/** A room's METHOD:REPLY delivered to the organizer's inbox (kept 30 days). */
export type CalendarReplyDelivered = {
  type: 'CalendarReplyDelivered';
  data: CalendarEventKey & { replyId: string; uid: string; attendee: string; requestStatus: string; text: string; at: string };
};

/** The organizer deleted a REPLY from its inbox. */
export type CalendarReplyRemoved = { type: 'CalendarReplyRemoved'; data: CalendarEventKey & { replyId: string; at: string } };

export type CalendarEventEvent = CalendarEventStored | CalendarEventRemoved | CalendarReplyDelivered | CalendarReplyRemoved;

export const calendarEventTypes: ReadonlySet<string> = new Set(['CalendarEventStored', 'CalendarEventRemoved', 'CalendarReplyDelivered', 'CalendarReplyRemoved']);

export const isCalendarEventEvent = (event: { type: string }): event is CalendarEventEvent => calendarEventTypes.has(event.type);
