import type { Booking } from './booking.js';
import { upcastBooking, type StoredBooking } from './upcast-booking.js';

/** The bookings of one resource stream as its events tell them, by id: the fold behind asOf answers. */
export type BookingsKnown = Record<string, Booking>;

/** Every booking event carries the whole record after it, so the fold keeps each booking's latest record. */
export function evolveBookingsKnown(state: BookingsKnown, event: { data: Record<string, unknown> }): BookingsKnown {
  const stored = event.data.booking as StoredBooking | undefined;
  if (stored) state[stored.id] = upcastBooking(stored);
  return state;
}
