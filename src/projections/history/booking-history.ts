import type { Booking } from '../../domain/booking/booking.js';
import { recordChanges, type FieldChange } from '../../domain/booking/booking-changes.js';
import { historyEventName } from './history-event-name.js';
import type { ChainedEvent } from '../../infra/event-store/log-reader.js';

/** One event of a booking's history (contract §13); `booking` is the record after the event. */
export type BookingHistoryEntry<Json> = {
  position: number;
  revision: number;
  event: string;
  at: string;
  by: string;
  changes: Record<string, FieldChange>;
  booking: Json;
  hash: string;
};

type BookingEventData = { booking: Booking; by: string; at: string };

/**
 * Folds a booking's events into its history: every event carries the whole record after it, so each
 * step's changes are the difference from the step before, in the answer's JSON form (`toJson`).
 */
export function bookingHistory<Json extends Record<string, unknown>>(events: ChainedEvent[], toJson: (booking: Booking) => Json): BookingHistoryEntry<Json>[] {
  let before: Json | null = null;
  return events.map((event) => {
    const data = event.data as BookingEventData;
    const booking = toJson(data.booking);
    const entry = {
      position: Number(event.globalPosition),
      revision: Number(event.streamRevision),
      event: historyEventName(event),
      at: data.at,
      by: data.by,
      changes: recordChanges(before, booking),
      booking,
      hash: event.hash,
    };
    before = booking;
    return entry;
  });
}
