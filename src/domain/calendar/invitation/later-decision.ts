import type { Booking, BookingStatus } from '../../booking/booking.js';
import type { RoomAnswer } from './calendar-event-events.js';

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
