import { Temporal } from 'temporal-polyfill';
import { isAdmin, type Principal } from '../access/principal.js';
import { DomainError, forbidden, invalidTransition, policyViolation } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';
import type { Booking } from './booking.js';
import type { BookingCancelled, BookingCheckedIn, BookingCheckedOut, BookingConfirmed } from './booking-events.js';
import { assertBookerOrAdmin, visibleBooking } from './booking-access.js';
import { checkInOpensMinutesBefore, instantOf, utcText } from './booking-time.js';

/** What a move on one booking decides on. */
export type BookingMoveState = {
  booking: Booking | null;
  /** The booking's resource, removed ones included: its policy still governs the booking. */
  resource: Resource | null;
};

function singleBooking(booking: Booking, move: string): void {
  if (booking.isSeriesParent) throw invalidTransition(`a series parent cannot be ${move} on its own; use /bookings/series/{parentId}`);
}

/** pending → confirmed, by LV1–LV3, before the booking starts (a pending booking expires at its start). */
export function decideConfirmBooking(state: BookingMoveState, actor: Principal, now: Temporal.Instant): BookingConfirmed {
  if (!isAdmin(actor)) throw forbidden('only LV1–LV3 may confirm bookings');
  const booking = visibleBooking(actor, state.booking);
  singleBooking(booking, 'confirmed');
  if (booking.status !== 'pending') throw invalidTransition(`Booking cannot be confirmed in status ${booking.status}`);
  if (Temporal.Instant.compare(now, instantOf(booking.startTime)) >= 0) {
    throw invalidTransition('Booking cannot be confirmed: it was not confirmed before its start');
  }
  const at = utcText(now);
  return {
    type: 'BookingConfirmed',
    data: { booking: { ...booking, status: 'confirmed', confirmedBy: actor.sub, confirmedAt: at, updatedAt: at }, by: actor.sub, at },
  };
}

/**
 * pending|confirmed → cancelled, by the booker or LV1–LV3. LV4/LV5 cancel a confirmed booking
 * only until cancellationPolicy.minNoticeMinutes before its start.
 */
export function decideCancelBooking(state: BookingMoveState, actor: Principal, now: Temporal.Instant, reason: string | null = null): BookingCancelled {
  const booking = visibleBooking(actor, state.booking);
  assertBookerOrAdmin(actor, booking);
  singleBooking(booking, 'cancelled');
  if (booking.status !== 'pending' && booking.status !== 'confirmed') {
    throw invalidTransition(`Booking cannot be cancelled in status ${booking.status}`);
  }
  if (booking.status === 'confirmed' && !isAdmin(actor)) {
    const minutes = state.resource?.bookingPolicy.cancellationPolicy.minNoticeMinutes ?? 0;
    const deadline = instantOf(booking.startTime).subtract({ minutes });
    if (Temporal.Instant.compare(now, deadline) > 0) {
      throw policyViolation('cancellationPolicy', `a confirmed booking can be cancelled only until ${minutes} minutes before its start`);
    }
  }
  return cancelled(booking, actor.sub, now, reason);
}

/** The cancellation of an active booking, by a user or by the system. */
export function cancelled(booking: Booking, by: string, now: Temporal.Instant, reason: string | null): BookingCancelled {
  const at = utcText(now);
  return {
    type: 'BookingCancelled',
    data: { booking: { ...booking, status: 'cancelled', cancelledBy: by, cancelledAt: at, reason, updatedAt: at }, by, at },
  };
}

/** Sets checkedInAt on a confirmed booking from 15 minutes before its start until its end; the status stays. */
export function decideCheckInBooking(state: BookingMoveState, actor: Principal, now: Temporal.Instant): BookingCheckedIn {
  const booking = visibleBooking(actor, state.booking);
  assertBookerOrAdmin(actor, booking);
  singleBooking(booking, 'checked in');
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
  return { type: 'BookingCheckedIn', data: { booking: { ...booking, checkedInAt: at, updatedAt: at }, by: actor.sub, at } };
}

/** confirmed → completed early, checkedOutAt set. */
export function decideCheckOutBooking(state: BookingMoveState, actor: Principal, now: Temporal.Instant): BookingCheckedOut {
  const booking = visibleBooking(actor, state.booking);
  assertBookerOrAdmin(actor, booking);
  singleBooking(booking, 'checked out');
  if (booking.status !== 'confirmed') throw invalidTransition(`Booking cannot be checked out in status ${booking.status}`);
  const at = utcText(now);
  return {
    type: 'BookingCheckedOut',
    data: { booking: { ...booking, status: 'completed', checkedOutAt: at, updatedAt: at }, by: actor.sub, at },
  };
}
