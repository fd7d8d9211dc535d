import { invalidTransition } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';
import type { Booking } from './booking.js';

/** What a move on one booking decides on. */
export type BookingMoveState = {
  booking: Booking | null;
  /** The booking's resource, removed ones included: its policy still governs the booking. */
  resource: Resource | null;
};

/** A series parent moves only through the series' own operations. */
export function assertSingleBooking(booking: Booking, move: string): void {
  if (booking.isSeriesParent) throw invalidTransition(`a series parent cannot be ${move} on its own; use /bookings/series/{parentId}`);
}
