import type { Booking } from './booking.js';
import { bookingEventTypes } from './booking-events.js';

/**
 * Retention moved the booking to the archive (contract §13). Kept apart from BookingEvent on
 * purpose: publishedEventName names the published kinds, and the contract lists `booking.archive`
 * among the events not published today, so webhooks, Kafka and the audit feed never see it.
 * It still carries the whole booking (with archivedAt), so the booking's history folds it like any other.
 */
export type BookingArchived = {
  type: 'BookingArchived';
  data: { booking: Booking & { archivedAt: string }; by: string; at: string };
};

/** Every kind that carries a booking's state on a resource stream, published or not: what the booking read models follow. */
export const storedBookingEventTypes: ReadonlySet<string> = new Set([...bookingEventTypes, 'BookingArchived']);
