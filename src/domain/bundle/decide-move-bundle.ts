import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import { callerRefusal } from '../placement/placement-refusal.js';
import type { BookingRescheduled } from '../booking/booking-events.js';
import { assertValidTimes } from '../booking/booking-time.js';
import { decideRescheduleBooking, type RescheduleBooking, type RescheduleBookingState } from '../booking/decide-reschedule-booking.js';
import { assertBookerOrAdmin, visibleBooking } from '../booking/booking-access.js';
import { invalidTransition, notFound } from '../domain-error.js';
import { countedOf, usagesAfter } from '../quota/quota-changes.js';
import { bundleRefusal, refusalOf } from './bundle-refusal.js';

const active = (state: RescheduleBookingState) => state.booking?.status === 'pending' || state.booking?.status === 'confirmed';

/**
 * Booking `i`'s state with the bundle's other moving bookings counted at the new times, not the old:
 * the same booker's, they move together, so together they may not pass a quota that one alone would.
 */
function withOthersMoved(command: RescheduleBooking, states: readonly RescheduleBookingState[], i: number): RescheduleBookingState {
  const state = states[i]!;
  const { startTime, endTime } = command;
  if (!startTime || !endTime || !state.quotas?.length) return state;
  const before = states.flatMap((other, j) => (j !== i && active(other) ? (countedOf(other.booking!, other.resource) ?? []) : []));
  const after = before.map((counted) => ({ ...counted, startTime, endTime }));
  return { ...state, quotas: usagesAfter(state.quotas, { before, after }) };
}

/**
 * PATCH /bundles/{id}: every booking of the bundle still pending or confirmed moves to the new
 * times (and title), each judged as its own reschedule, the bundle refused as bundleRefusal orders
 * it (`item`: the booking's index in the bundle); all or nothing. `states` hold every booking of the
 * bundle in the items' order; none → 404, none active → 409.
 */
export function decideMoveBundle(command: RescheduleBooking, states: readonly RescheduleBookingState[], actor: Principal, now: Temporal.Instant): BookingRescheduled[] {
  // §3's order, as a reschedule's: the request's own faults (400) and the guest's (403) before 404.
  if (command.startTime && command.endTime) assertValidTimes(command.startTime, command.endTime, now, false);
  const caller = callerRefusal({}, actor);
  if (caller) throw caller;
  if (states.length === 0) throw notFound('bundle');
  assertBookerOrAdmin(actor, visibleBooking(actor, states[0]!.booking));
  const judged = states.map((_, i) => withOthersMoved(command, states, i));
  const decide = (state: RescheduleBookingState) => (active(state) ? decideRescheduleBooking(command, state, actor, now, { inBundle: true }) : []);
  const refusal = bundleRefusal(judged.map((state) => refusalOf(() => decide(state))));
  if (refusal) throw refusal;
  if (!states.some(active)) throw invalidTransition('no booking of the bundle is pending or confirmed');
  return judged.flatMap(decide);
}
