import { isBookingEvent, publishedEventName, type BookingEvent } from './booking-events.js';

/** What the envelope is made of: a stored event's id, type and data. */
export type StoredEvent = { id: string; type: string; data: Record<string, unknown> };

/** The body of every webhook and the value of every Kafka message (contract §8). */
export type EventEnvelope = {
  /** The stored event's id: a redelivery carries the same one, so consumers de-duplicate on it. */
  id: string;
  event: string;
  timestamp: string;
  workspace: string;
  data: Record<string, unknown>;
};

function extrasOf(event: BookingEvent): Record<string, unknown> {
  const { booking } = event.data;
  switch (event.type) {
    case 'BookingCreated':
      return {};
    case 'BookingConfirmed':
      return { confirmedBy: booking.confirmedBy, confirmedAt: booking.confirmedAt };
    case 'BookingRescheduled':
      return { previousStartTime: event.data.previousStartTime, previousEndTime: event.data.previousEndTime };
    case 'BookingCancelled':
      return { cancelledBy: booking.cancelledBy, cancelledAt: booking.cancelledAt, reason: booking.reason };
    case 'BookingCheckedIn':
      return { checkedInAt: booking.checkedInAt };
    case 'BookingCheckedOut':
      return { checkedOutAt: booking.checkedOutAt };
    case 'BookingCompleted':
      return { completedAt: event.data.at };
    case 'BookingMarkedNoShow':
      return { gracePeriodExpiredAt: event.data.gracePeriodExpiredAt };
    case 'BookingReminderIssued':
      return { reminderType: event.data.reminderType };
    default:
      return event satisfies never;
  }
}

/** The published form of a booking event: the base set of spec §6 plus the kind's extras; null for any other event. */
export function toEventEnvelope(recorded: StoredEvent): EventEnvelope | null {
  const event = { type: recorded.type, data: recorded.data };
  if (!isBookingEvent(event)) return null;
  const { booking } = event.data;
  return {
    id: recorded.id,
    event: publishedEventName[event.type],
    timestamp: event.data.at,
    workspace: booking.workspace,
    data: {
      id: booking.id,
      resourceId: booking.resourceId,
      resourceType: booking.resourceType,
      bookerEmail: booking.bookerEmail,
      bookerProfileId: booking.bookerProfileId,
      startTime: booking.startTime,
      endTime: booking.endTime,
      status: booking.status,
      title: booking.title,
      workspace: booking.workspace,
      ...extrasOf(event),
    },
  };
}
