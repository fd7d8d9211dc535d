import type { Booking } from '../booking/booking.js';
import { instantOf } from '../booking/booking-time.js';
import type { Resource } from '../resource/resource.js';
import type { QuotaLedger } from './quota-refusal.js';
import { quotaMatches } from './quota.js';
import { amountOf, type CountedBooking, type QuotaUsage } from './quota-usage.js';

/**
 * What earlier steps of one write changed of the booker's counted bookings after the states of its
 * later steps were read: `before`, the bookings as those states counted them (moved or cancelled
 * since); `after`, as they count now (made, or moved to new times). A booking in both moved.
 */
export type CountedChanges = { before: readonly CountedBooking[]; after: readonly CountedBooking[] };

/** A booking as quotas count it (contract §17: any status but cancelled, no series parent), or null when it does not count. */
export function countedOf(booking: Booking, resource: Pick<Resource, 'groupId'> | null): CountedBooking | null {
  if (booking.status === 'cancelled' || booking.isSeriesParent) return null;
  return {
    id: booking.id,
    resource: { id: booking.bookableResourceId, resourceType: booking.resourceType, groupId: resource?.groupId ?? null },
    startTime: instantOf(booking.startTime),
    endTime: instantOf(booking.endTime),
  };
}

const startsIn = (usage: QuotaUsage, booking: CountedBooking) =>
  booking.startTime.epochMilliseconds >= usage.periodStart.epochMilliseconds && booking.startTime.epochMilliseconds < usage.periodEnd.epochMilliseconds;

/** What `bookings` use of the usage's quota in its period. */
const usedBy = (usage: QuotaUsage, bookings: readonly CountedBooking[]) =>
  bookings.reduce((sum, b) => (quotaMatches(usage, b.resource) && startsIn(usage, b) ? sum + amountOf(usage.unit, b.startTime, b.endTime) : sum), 0);

/** Usages read before the changes, as they stand after them: each changed booking counted at its new times only, in the period that holds them. */
export function usagesAfter(usages: readonly QuotaUsage[], changes: CountedChanges): QuotaUsage[] {
  if (changes.before.length === 0 && changes.after.length === 0) return [...usages];
  return usages.map((usage) => ({ ...usage, used: usage.used - usedBy(usage, changes.before) + usedBy(usage, changes.after) }));
}

/** A series' ledger read before the changes, as it stands after them. */
export function ledgerAfter(ledger: QuotaLedger, changes: CountedChanges): QuotaLedger {
  if (changes.before.length === 0 && changes.after.length === 0) return ledger;
  const changed = new Set([...changes.before, ...changes.after].map((b) => b.id));
  return { quotas: ledger.quotas, counted: [...ledger.counted.filter((b) => !changed.has(b.id)), ...changes.after] };
}
