import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import { invalidTransition } from '../domain-error.js';
import { cancelled } from './booking-cancelled.js';
import type { BookingCancelled } from './booking-events.js';
import { assertBookerOrAdmin, visibleBooking } from './booking-access.js';
import { assertSingleBooking, type BookingMoveState } from './booking-move-state.js';
import { assertCancellationPolicy } from './booking-policy.js';

/** pending|confirmed → cancelled, by the booker or LV1–LV3, within the resource's cancellation policy. */
export function decideCancelBooking(state: BookingMoveState, actor: Principal, now: Temporal.Instant, reason: string | null = null): BookingCancelled {
  const booking = visibleBooking(actor, state.booking);
  assertBookerOrAdmin(actor, booking);
  assertSingleBooking(booking, 'cancelled');
  if (booking.status !== 'pending' && booking.status !== 'confirmed') {
    throw invalidTransition(`Booking cannot be cancelled in status ${booking.status}`);
  }
  assertCancellationPolicy(booking, state.resource, actor, now);
  return cancelled(booking, actor.sub, now, reason);
}
