import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import { assertBookerOrAdmin, visibleBooking } from '../booking/booking-access.js';
import type { BookingCancelled } from '../booking/booking-events.js';
import type { BookingMoveState } from '../booking/booking-move-state.js';
import { decideCancelBooking } from '../booking/decide-cancel-booking.js';
import { invalidTransition, notFound } from '../domain-error.js';

/**
 * PATCH /bundles/{id}/cancel: every booking of the bundle still pending or confirmed is cancelled
 * as its own cancel would be (a booking.cancel each). `states` hold every booking of the bundle;
 * none → 404, none left to cancel → 409.
 */
export function decideCancelBundle(states: readonly BookingMoveState[], actor: Principal, now: Temporal.Instant, reason: string | null): BookingCancelled[] {
  if (states.length === 0) throw notFound('bundle');
  assertBookerOrAdmin(actor, visibleBooking(actor, states[0]!.booking));
  const cancellable = states.filter((s) => s.booking?.status === 'pending' || s.booking?.status === 'confirmed');
  if (cancellable.length === 0) throw invalidTransition('no booking of the bundle is pending or confirmed');
  return cancellable.map((state) => decideCancelBooking(state, actor, now, reason));
}
