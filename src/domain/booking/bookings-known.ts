import type { Booking } from './booking.js';

/** The bookings of one resource stream as its events tell them, by id: the fold behind asOf answers. */
export type BookingsKnown = Record<string, Booking>;

/** Every booking event carries the whole record after it, so the fold keeps each booking's latest record. */
export function evolveBookingsKnown(state: BookingsKnown, event: { data: Record<string, unknown> }): BookingsKnown {
  const booking = event.data.booking as Booking | undefined;
  if (booking) state[booking.id] = booking;
  return state;
}
