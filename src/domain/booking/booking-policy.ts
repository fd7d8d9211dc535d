import { Temporal } from 'temporal-polyfill';
import { policyViolation } from '../domain-error.js';
import { isWithinAvailability } from '../resource/availability.js';
import type { Resource } from '../resource/resource.js';

/**
 * Operating hours repeat weekly: a span longer than eight days is open throughout exactly when its
 * first eight days are (every weekday whole). Bounds the day-by-day walk whatever the booking's length.
 */
function isWithinWeeklyHours(resource: Resource, start: Temporal.Instant, end: Temporal.Instant): boolean {
  const eightDays = start.add({ hours: 8 * 24 });
  return isWithinAvailability(resource.availability, start, Temporal.Instant.compare(end, eightDays) > 0 ? eightDays : end);
}

/**
 * The resource's rules for a booking at [start, end), in the order clients are told: isActive,
 * availability, maxDurationMinutes, then the start's horizon (maxAdvanceDays, minNoticeMinutes)
 * when the start is new. maxBookingsPerUser needs a count and is checked by create alone.
 */
export function assertBookingPolicy(resource: Resource, start: Temporal.Instant, end: Temporal.Instant, now: Temporal.Instant, startChanged = true): void {
  const policy = resource.bookingPolicy;
  if (!resource.isActive || resource.removed) throw policyViolation('isActive', 'the resource is inactive and accepts no new bookings');
  if (!isWithinWeeklyHours(resource, start, end)) {
    throw policyViolation('availability', 'the booking lies outside the operating hours of the resource');
  }
  const minutes = start.until(end).total({ unit: 'minutes' });
  if (minutes > policy.maxDurationMinutes) {
    throw policyViolation('maxDurationMinutes', `Booking exceeds the maximum duration of ${policy.maxDurationMinutes} minutes`);
  }
  if (!startChanged) return;
  if (Temporal.Instant.compare(start, now.add({ hours: policy.maxAdvanceDays * 24 })) > 0) {
    throw policyViolation('maxAdvanceDays', `a booking may start at most ${policy.maxAdvanceDays} days ahead`);
  }
  if (Temporal.Instant.compare(start, now.add({ minutes: policy.minNoticeMinutes })) < 0) {
    throw policyViolation('minNoticeMinutes', `a booking must start at least ${policy.minNoticeMinutes} minutes from now`);
  }
}
