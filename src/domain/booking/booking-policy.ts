import { Temporal } from 'temporal-polyfill';
import { isAdmin, type Principal } from '../access/principal.js';
import { policyViolation, type DomainError } from '../domain-error.js';
import { isWithinAvailability } from '../resource/availability.js';
import type { Resource } from '../resource/resource.js';
import type { PolicyKeyed } from '../resource/policy-key.js';
import type { Booking } from './booking.js';
import { instantOf } from './booking-time.js';

/**
 * Operating hours repeat weekly: a span longer than eight days is open throughout exactly when its
 * first eight days are (every weekday whole). Bounds the day-by-day walk whatever the booking's length.
 */
function isWithinWeeklyHours(resource: PolicyKeyed, start: Temporal.Instant, end: Temporal.Instant): boolean {
  const eightDays = start.add({ hours: 8 * 24 });
  return isWithinAvailability(resource.availability, start, Temporal.Instant.compare(end, eightDays) > 0 ? eightDays : end);
}

/**
 * The resource's rules for a booking at [start, end), in the order clients are told: isActive,
 * availability, maxDurationMinutes, then the start's horizon (maxAdvanceDays, minNoticeMinutes)
 * when the start is new. The first rule broken, or null. maxBookingsPerUser needs a count: isWithinBookingLimit.
 * It reads the resource's policy key alone (policy-key.ts): a search decides it once per key.
 */
export function bookingPolicyRefusal(resource: PolicyKeyed, start: Temporal.Instant, end: Temporal.Instant, now: Temporal.Instant, startChanged = true): DomainError | null {
  const policy = resource.bookingPolicy;
  if (!resource.isActive) return policyViolation('isActive', 'the resource is inactive and accepts no new bookings');
  if (!isWithinWeeklyHours(resource, start, end)) {
    return policyViolation('availability', 'the booking lies outside the operating hours of the resource');
  }
  const minutes = start.until(end).total({ unit: 'minutes' });
  if (minutes > policy.maxDurationMinutes) {
    return policyViolation('maxDurationMinutes', `Booking exceeds the maximum duration of ${policy.maxDurationMinutes} minutes`);
  }
  if (!startChanged) return null;
  if (Temporal.Instant.compare(start, now.add({ hours: policy.maxAdvanceDays * 24 })) > 0) {
    return policyViolation('maxAdvanceDays', `a booking may start at most ${policy.maxAdvanceDays} days ahead`);
  }
  if (Temporal.Instant.compare(start, now.add({ minutes: policy.minNoticeMinutes })) < 0) {
    return policyViolation('minNoticeMinutes', `a booking must start at least ${policy.minNoticeMinutes} minutes from now`);
  }
  return null;
}

/**
 * maxBookingsPerUser: whether a booker with `active` active bookings on the resource may add `adding`
 * more (a count capped at the limit is enough).
 */
export function isWithinBookingLimit(resource: PolicyKeyed, active: number, adding = 1): boolean {
  const limit = resource.bookingPolicy.maxBookingsPerUser;
  return limit === null || adding <= 0 || active + adding <= limit;
}

/** What isWithinBookingLimit does not allow of one more booking, or null. */
export function bookingLimitRefusal(resource: PolicyKeyed, active: number): DomainError | null {
  if (isWithinBookingLimit(resource, active)) return null;
  return policyViolation('maxBookingsPerUser', `at most ${resource.bookingPolicy.maxBookingsPerUser} active bookings per user on this resource`);
}

/**
 * cancellationPolicy: LV4/LV5 cancel a confirmed booking only until minNoticeMinutes before its
 * start; LV1–LV3, and anyone for a pending booking, without this deadline. Null when there is none.
 * The resource may be removed: its policy still governs its bookings.
 */
export function cancellationDeadline(booking: Booking, resource: Resource | null, actor: Principal): Temporal.Instant | null {
  if (booking.status !== 'confirmed' || isAdmin(actor)) return null;
  return instantOf(booking.startTime).subtract({ minutes: resource?.bookingPolicy.cancellationPolicy.minNoticeMinutes ?? 0 });
}

/** Whether the cancellation deadline (if any) still lies ahead at `now`. */
export function isBeforeCancellationDeadline(booking: Booking, resource: Resource | null, actor: Principal, now: Temporal.Instant): boolean {
  const deadline = cancellationDeadline(booking, resource, actor);
  return deadline === null || Temporal.Instant.compare(now, deadline) <= 0;
}

/** Refuses a cancellation past its deadline (a single booking: the client is told why). */
export function assertCancellationPolicy(booking: Booking, resource: Resource | null, actor: Principal, now: Temporal.Instant): void {
  if (isBeforeCancellationDeadline(booking, resource, actor, now)) return;
  const minutes = resource?.bookingPolicy.cancellationPolicy.minNoticeMinutes ?? 0;
  throw policyViolation('cancellationPolicy', `a confirmed booking can be cancelled only until ${minutes} minutes before its start`);
}
