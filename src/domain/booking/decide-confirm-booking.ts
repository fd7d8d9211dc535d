import { changedBooking } from './booking-sequence.js';
import { Temporal } from 'temporal-polyfill';
import { isAdmin, type Principal } from '../access/principal.js';
import { forbidden, invalidTransition } from '../domain-error.js';
import type { BookingConfirmed } from './booking-events.js';
import { visibleBooking } from './booking-access.js';
import { assertSingleBooking, type BookingMoveState } from './booking-move-state.js';
import { instantOf, utcText } from './booking-time.js';

/** pending → confirmed, by LV1–LV3, before the booking starts (a pending booking expires at its start). */
export function decideConfirmBooking(state: BookingMoveState, actor: Principal, now: Temporal.Instant): BookingConfirmed {
  if (!isAdmin(actor)) throw forbidden('only LV1–LV3 may confirm bookings');
  const booking = visibleBooking(actor, state.booking);
  assertSingleBooking(booking, 'confirmed');
  if (booking.status !== 'pending') throw invalidTransition(`Booking cannot be confirmed in status ${booking.status}`);
  if (Temporal.Instant.compare(now, instantOf(booking.startTime)) >= 0) {
    throw invalidTransition('Booking cannot be confirmed: it was not confirmed before its start');
  }
  const at = utcText(now);
  return {
    type: 'BookingConfirmed',
    data: { booking: changedBooking(booking, at, { status: 'confirmed', confirmedBy: actor.sub, confirmedAt: at }), by: actor.sub, at },
  };
}
