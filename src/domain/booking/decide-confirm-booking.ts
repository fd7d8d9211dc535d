import { changedBooking } from './booking-sequence.js';
import { Temporal } from 'temporal-polyfill';
import { bookingDecisionRight } from '../access/booking-decision-right.js';
import { canSeeWorkspace, isAdmin, type Principal } from '../access/principal.js';
import { forbidden, invalidTransition, notFound } from '../domain-error.js';
import type { BookingConfirmed } from './booking-events.js';
import { assertSingleBooking } from './booking-move-state.js';
import type { BookingDecisionState } from './booking-decision-state.js';
import { instantOf, utcText } from './booking-time.js';

/**
 * pending → confirmed, before the booking starts (a pending booking expires at its start), by
 * LV1–LV3, an approver of its resource or an approver's delegate (`onBehalfOf`, contract §24).
 * A booking of another workspace is not there for the actor (404, never 403); whoever holds the
 * right learns that a booking no longer pending was decided already (409), not that it may not.
 */
export function decideConfirmBooking(state: BookingDecisionState, actor: Principal, now: Temporal.Instant): BookingConfirmed {
  if (state.booking && !canSeeWorkspace(actor, state.booking.workspace)) throw notFound('booking');
  const right = state.booking && bookingDecisionRight(actor, state.booking, state.resource, state.delegations ?? [], now);
  if (!right) {
    if (!isAdmin(actor)) throw forbidden('only LV1–LV3 or an approver of the resource may confirm bookings');
    throw notFound('booking');
  }
  const booking = state.booking!;
  assertSingleBooking(booking, 'confirmed');
  if (booking.status !== 'pending') throw invalidTransition(`Booking cannot be confirmed in status ${booking.status}`);
  if (Temporal.Instant.compare(now, instantOf(booking.startTime)) >= 0) {
    throw invalidTransition('Booking cannot be confirmed: it was not confirmed before its start');
  }
  const at = utcText(now);
  return {
    type: 'BookingConfirmed',
    data: {
      booking: changedBooking(booking, at, { status: 'confirmed', confirmedBy: actor.sub, confirmedAt: at, onBehalfOf: right.onBehalfOf }),
      by: actor.sub,
      at,
      ...(right.onBehalfOf !== null && { onBehalfOf: right.onBehalfOf }),
    },
  };
}
