import type { Temporal } from 'temporal-polyfill';
import type { Booking, BookingStatus } from '../../booking/booking.js';
import { instantOf, utcText } from '../../booking/booking-time.js';
import type { CalendarEventKey, CalendarEventStored, CalendarReplyDelivered, RoomAnswer } from './calendar-event-events.js';
import { parseInvitation } from './parse-invitation.js';
import { replyText } from './reply-text.js';
import { storedEventText } from './stored-event-text.js';

/** The PARTSTAT a room gives for the booking it holds, as the booking stands now (contract §26). */
export function partstatOfStatus(status: BookingStatus): RoomAnswer['partstat'] {
  switch (status) {
    case 'pending':
      return 'TENTATIVE';
    case 'confirmed':
    case 'completed':
      return 'ACCEPTED';
    case 'cancelled':
    case 'no_show':
      return 'DECLINED';
  }
}

/** Why a room withdrew, as the REPLY's COMMENT gives it: the cancel's reason, or what the system recorded. */
export function withdrawalComment(booking: Pick<Booking, 'status' | 'reason'>): string {
  if (booking.status === 'no_show') return 'no-show: not checked in within the grace period';
  return booking.reason?.trim() || 'cancelled';
}

/** A room's answer changed by a decision made after the event's write, with the stored answers it leaves. */
export type LaterAnswer = {
  rooms: RoomAnswer[];
  answer: RoomAnswer;
  /** The REPLY's COMMENT (a withdrawal's reason); null for an acceptance. */
  comment: string | null;
};

/**
 * A decision made outside the organizer's event (an approver's confirm or decline, a deadline, a
 * cancel through REST or by a worker, a blackout) as the event's room answers (contract §26
 * "Decisions made later"). The room that holds the booking answers what the booking's status
 * implies; a withdrawn room keeps no booking (RoomAnswer.bookingId is the booking it holds), so its
 * X-BOOKING-ID leaves the stored event and a later write of the event asks it again only at new
 * times, as for any declined room. The REQUEST-STATUS stays `2.0;Success`: RFC 5546 §3.6 codes
 * report how the request was processed, and this one was; the withdrawal is the attendee's
 * PARTSTAT=DECLINED, its reason a COMMENT (which RFC 5546 §3.2.3 allows in a REPLY).
 * Null when no room holds the booking or the stored answer already agrees: a repeat of the
 * decision, or the event's own write, which records its answers in the append that moves the booking.
 */
export function laterAnswer(rooms: readonly RoomAnswer[], booking: Pick<Booking, 'id' | 'status' | 'reason'>): LaterAnswer | null {
  const index = rooms.findIndex((room) => room.bookingId === booking.id);
  if (index < 0) return null;
  const previous = rooms[index]!;
  const partstat = partstatOfStatus(booking.status);
  if (previous.partstat === partstat) return null;
  const withdrawn = partstat === 'DECLINED';
  const answer: RoomAnswer = { ...previous, partstat, bookingId: withdrawn ? null : previous.bookingId, scheduleStatus: '1.2', requestStatus: '2.0;Success' };
  return { rooms: rooms.map((room, i) => (i === index ? answer : room)), answer, comment: withdrawn ? withdrawalComment(booking) : null };
}

/** A series a room holds for the event, as it stands after a decision on one of its occurrences. */
export type SeriesStanding = {
  parent: Pick<Booking, 'id' | 'status' | 'reason'>;
  /** Every occurrence of the series, any status. */
  occurrences: readonly Pick<Booking, 'status' | 'startTime'>[];
  /** The room's zone, in which the event's floating times and days are read (RoomAnswer.declined). */
  resourceTimeZone: string;
};

const withdrawnStatuses: readonly BookingStatus[] = ['cancelled', 'no_show'];

/**
 * A decision on one occurrence of a series the room holds for a recurring event: the room's
 * answer is its series as it stands — DECLINED once the series is cancelled or no occurrence is
 * left, TENTATIVE while an occurrence waits for approval, else ACCEPTED — and every withdrawn
 * occurrence an instance in which the room is DECLINED. Null when the stored answer already says so.
 */
export function laterSeriesAnswer(rooms: readonly RoomAnswer[], series: SeriesStanding, occurrence: Pick<Booking, 'status' | 'reason'>): LaterAnswer | null {
  if (withdrawnStatuses.includes(series.parent.status)) return laterAnswer(rooms, series.parent);
  const index = rooms.findIndex((room) => room.bookingId === series.parent.id);
  if (index < 0) return null;
  const previous = rooms[index]!;
  const active = series.occurrences.filter((o) => !withdrawnStatuses.includes(o.status));
  const partstat: RoomAnswer['partstat'] = active.length === 0 ? 'DECLINED' : active.some((o) => o.status === 'pending') ? 'TENTATIVE' : 'ACCEPTED';
  const withdrawn = series.occurrences.filter((o) => withdrawnStatuses.includes(o.status)).map((o) => o.startTime);
  const starts = [...new Set([...(previous.declined?.starts ?? []), ...withdrawn])].sort();
  if (partstat === previous.partstat && starts.length === (previous.declined?.starts.length ?? 0)) return null;
  const answer: RoomAnswer = {
    ...previous,
    partstat,
    bookingId: partstat === 'DECLINED' ? null : previous.bookingId,
    scheduleStatus: '1.2',
    requestStatus: '2.0;Success',
    declined: starts.length === 0 ? undefined : { resourceTimeZone: previous.declined?.resourceTimeZone ?? series.resourceTimeZone, starts },
  };
  return { rooms: rooms.map((room, i) => (i === index ? answer : room)), answer, comment: withdrawnStatuses.includes(occurrence.status) ? withdrawalComment(occurrence) : null };
}

/** The stored event as a later decision reads it. */
export type StoredEvent = CalendarEventKey & Pick<CalendarEventStored['data'], 'uid' | 'organizerEmail' | 'sourceText' | 'sourceHash' | 'scheduleTag' | 'rooms'>;

/** Who made the decision the room follows: the confirming or cancelling `sub`, or the system (a no-show, a deadline). */
const deciderOf = (booking: Booking) => (booking.status === 'confirmed' || booking.status === 'completed' ? booking.confirmedBy : booking.status === 'cancelled' ? booking.cancelledBy : null) ?? 'system';

/**
 * The events of a later decision on the organizer's event: the event stored again with the room's
 * new answer, rendered from the organizer's text, under the same Schedule-Tag (RFC 6638 §3.2.10:
 * an attendee's reply does not change the organizer's object's tag, only its ETag), and the room's
 * REPLY for the inbox on the booking's times. None when the stored answer already agrees.
 */
export function decideLaterDecision(
  stored: StoredEvent,
  booking: Booking,
  now: Temporal.Instant,
  newId: () => string,
  series: SeriesStanding | null = null,
): [CalendarEventStored, CalendarReplyDelivered] | [] {
  const later = series ? laterSeriesAnswer(stored.rooms, series, booking) : laterAnswer(stored.rooms, booking);
  if (!later) return [];
  // An occurrence's own decision is told as the REPLY of its instance (RFC 5546 §3.2.3), with the occurrence's PARTSTAT.
  const instance = series !== null && !withdrawnStatuses.includes(series.parent.status);
  const { workspace, owner, name, uid, organizerEmail, sourceText, sourceHash, scheduleTag } = stored;
  const invitation = parseInvitation(sourceText);
  const at = utcText(now);
  const reply = replyText({
    uid,
    sequence: invitation.sequence,
    summary: invitation.summary,
    organizer: invitation.organizer ?? `mailto:${organizerEmail}`,
    attendee: later.answer.address,
    partstat: instance ? partstatOfStatus(booking.status) : later.answer.partstat,
    ...(instance && { recurrenceId: instantOf(booking.startTime) }),
    requestStatus: later.answer.requestStatus,
    start: instantOf(booking.startTime),
    end: instantOf(booking.endTime),
    stamp: now,
    ...(later.comment !== null && { comment: later.comment }),
  });
  return [
    {
      type: 'CalendarEventStored',
      data: { workspace, owner, name, uid, organizerEmail, sourceText, sourceHash, text: storedEventText(sourceText, later.rooms), scheduleTag, rooms: later.rooms, at, by: deciderOf(booking) },
    },
    {
      type: 'CalendarReplyDelivered',
      data: { workspace, owner, name, replyId: newId(), uid, attendee: later.answer.address, requestStatus: later.answer.requestStatus, text: reply, at },
    },
  ];
}
