import { changedBooking } from './booking-sequence.js';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import { DomainError, invalidTransition } from '../domain-error.js';
import type { BookingCheckedIn } from './booking-events.js';
import { assertBookerOrAdmin, visibleBooking } from './booking-access.js';
import { assertSingleBooking, type BookingMoveState } from './booking-move-state.js';
import { checkInOpensMinutesBefore, instantOf, utcText } from './booking-time.js';

/** Sets checkedInAt on a confirmed booking from 15 minutes before its start until its end; the status stays. */
export function decideCheckInBooking(state: BookingMoveState, actor: Principal, now: Temporal.Instant): BookingCheckedIn {
  const booking = visibleBooking(actor, state.booking);
  assertBookerOrAdmin(actor, booking);
  assertSingleBooking(booking, 'checked in');
  if (booking.status !== 'confirmed') throw invalidTransition(`Booking cannot be checked in in status ${booking.status}`);
  if (booking.checkedInAt !== null) throw invalidTransition('Booking is already checked in');
  const opens = instantOf(booking.startTime).subtract({ minutes: checkInOpensMinutesBefore });
  if (Temporal.Instant.compare(now, opens) < 0 || Temporal.Instant.compare(now, instantOf(booking.endTime)) >= 0) {
    throw new DomainError(
      'outside_checkin_window',
      `check-in is open from ${checkInOpensMinutesBefore} minutes before startTime until endTime (${utcText(opens)} to ${booking.endTime})`,
    );
  }
  const at = utcText(now);
  return { type: 'BookingCheckedIn', data: { booking: changedBooking(booking, at, { checkedInAt: at }), by: actor.sub, at } };
}
