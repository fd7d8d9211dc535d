import type { Temporal } from 'temporal-polyfill';
import { bookingDecisionRight } from '../access/booking-decision-right.js';
import { isAdmin, type Principal } from '../access/principal.js';
import { invalidTransition } from '../domain-error.js';
import { cancelled } from './booking-cancelled.js';
import type { BookingCancelled } from './booking-events.js';
import { assertBookerOrAdmin, visibleBooking } from './booking-access.js';
import type { BookingDecisionState } from './booking-decision-state.js';
import { assertSingleBooking } from './booking-move-state.js';
import { assertCancellationPolicy } from './booking-policy.js';

/**
 * pending|confirmed → cancelled, by the booker or LV1–LV3, within the resource's cancellation
 * policy; or a pending booking declined by an approver of its resource or its delegate (contract §24).
 */
export function decideCancelBooking(state: BookingDecisionState, actor: Principal, now: Temporal.Instant, reason: string | null = null): BookingCancelled {
  const { booking } = state;
  if (booking && !isAdmin(actor) && booking.bookerProfileId !== actor.sub) {
    const right = bookingDecisionRight(actor, booking, state.resource, state.delegations ?? [], now);
    if (right) return declined(booking, right.onBehalfOf, actor, now, reason);
  }
  const visible = visibleBooking(actor, booking);
  assertBookerOrAdmin(actor, visible);
  assertSingleBooking(visible, 'cancelled');
  if (visible.status !== 'pending' && visible.status !== 'confirmed') {
    throw invalidTransition(`Booking cannot be cancelled in status ${visible.status}`);
  }
  assertCancellationPolicy(visible, state.resource, actor, now);
  return cancelled(visible, actor.sub, now, reason);
}

/**
 * An approver's right reaches only pending bookings: it declines them and nothing else. A booking
 * no longer pending was decided already (409): a delegate who lost the race learns it lost.
 */
function declined(booking: NonNullable<BookingDecisionState['booking']>, onBehalfOf: string | null, actor: Principal, now: Temporal.Instant, reason: string | null): BookingCancelled {
  assertSingleBooking(booking, 'cancelled');
  if (booking.status !== 'pending') throw invalidTransition(`Booking cannot be declined in status ${booking.status}: it was decided already`);
  return cancelled(booking, actor.sub, now, reason, onBehalfOf);
}
