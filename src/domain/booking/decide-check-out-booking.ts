import { changedBooking } from './booking-sequence.js';
import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import { invalidTransition } from '../domain-error.js';
import type { BookingCheckedOut } from './booking-events.js';
import { assertBookerOrAdmin, visibleBooking } from './booking-access.js';
import { assertSingleBooking, type BookingMoveState } from './booking-move-state.js';
import { utcText } from './booking-time.js';

/** confirmed → completed early, checkedOutAt set. */
export function decideCheckOutBooking(state: BookingMoveState, actor: Principal, now: Temporal.Instant): BookingCheckedOut {
  const booking = visibleBooking(actor, state.booking);
  assertBookerOrAdmin(actor, booking);
  assertSingleBooking(booking, 'checked out');
  if (booking.status !== 'confirmed') throw invalidTransition(`Booking cannot be checked out in status ${booking.status}`);
  const at = utcText(now);
  return {
    type: 'BookingCheckedOut',
    data: { booking: changedBooking(booking, at, { status: 'completed', checkedOutAt: at }), by: actor.sub, at },
  };
}
