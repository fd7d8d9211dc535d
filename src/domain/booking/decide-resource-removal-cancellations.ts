import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import type { Booking } from './booking.js';
import type { BookingCancelled } from './booking-events.js';
import { instantOf } from './booking-time.js';
import { cancelled } from './booking-cancelled.js';

export const resourceRemovedReason = 'resource removed';

/**
 * A removed resource keeps no future: its active bookings that have not started are cancelled, and
 * so is the parent of every series that loses an occurrence that way. Running bookings end normally.
 */
export function decideResourceRemovalCancellations(bookings: readonly Booking[], actor: Principal, now: Temporal.Instant): BookingCancelled[] {
  const active = bookings.filter((b) => b.status === 'pending' || b.status === 'confirmed');
  const future = active.filter((b) => !b.isSeriesParent && Temporal.Instant.compare(instantOf(b.startTime), now) > 0);
  const seriesHit = new Set(future.map((b) => b.recurrenceParentId).filter((id): id is string => id !== null));
  const parents = active.filter((b) => b.isSeriesParent && seriesHit.has(b.id));
  return [...future, ...parents].map((b) => cancelled(b, actor.sub, now, resourceRemovedReason));
}
