import type { Booking } from './booking.js';

/**
 * How many times a booking changed since it was created: a calendar's SEQUENCE (contract §18,
 * RFC 5545 §3.8.7.4: 0 at creation, one more with every change, or a client keeps the old time).
 * A booking of events written before the count existed carries none: its count is what its feed
 * showed then (whole seconds from creation to the last change), so it never goes down.
 */
export function sequenceOf(booking: Pick<Booking, 'sequence' | 'createdAt' | 'updatedAt'>): number {
  return booking.sequence ?? Math.max(0, Math.floor((Date.parse(booking.updatedAt) - Date.parse(booking.createdAt)) / 1000));
}

/** The booking as a change leaves it: `changes` over it, changed at `at`, counted once more. */
export function changedBooking(booking: Booking, at: string, changes: Partial<Booking> = {}): Booking {
  return { ...booking, ...changes, updatedAt: at, sequence: sequenceOf(booking) + 1 };
}
