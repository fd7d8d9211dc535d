import type { HeldBooking } from '../booking/booking.js';
import type { Resource } from '../resource/resource.js';

/** A resource that matches a search's filters, with what a create on it would decide on. */
export type FreeResourceCandidate = {
  resource: Resource;
  /** Equal for resources whose isActive, bookingPolicy and availability are equal: their policy verdicts are too. */
  policyKey: string;
  /** Its active bookings that may share time with the windows searched. */
  bookings: readonly HeldBooking[];
  /** The caller's active bookings on it (counted up to the policy's limit). */
  activeBookingsOfBooker: number;
};

/** Contract §16's order: smallest capacity first (none last), then resourceName, then id. */
export function compareCandidates(a: Resource, b: Resource): number {
  if (a.capacity !== b.capacity) {
    if (a.capacity === null) return 1;
    if (b.capacity === null) return -1;
    return a.capacity - b.capacity;
  }
  const byName = compareText(a.resourceName, b.resourceName);
  return byName !== 0 ? byName : compareText(a.id, b.id);
}

function compareText(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
