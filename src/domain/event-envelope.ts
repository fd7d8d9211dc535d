import { blackoutEventBody } from './blackout/blackout-event-envelope.js';
import { recordEventBody } from './record/record-event-envelope.js';
import { resourceEventBody } from './resource/resource-event-envelope.js';
import { isBookingEvent, publishedEventName, type BookingEvent } from './booking/booking-events.js';
import { upcastBooking } from './booking/upcast-booking.js';
import type { PublishedBody } from './published-body.js';
import { waitlistEventBody } from './waitlist/waitlist-events.js';

/** What the envelope is made of: a stored event's id, global position, type and data. */
export type StoredEvent = { id: string; globalPosition: number | string; type: string; data: Record<string, unknown> };

/** The body of every webhook and the value of every Kafka message (contract §8, §14). */
export type EventEnvelope = {
  /** The stored event's id: a redelivery carries the same one, so consumers de-duplicate on it. */
  id: string;
  event: string;
  timestamp: string;
  workspace: string;
  position: number;
  data: Record<string, unknown>;
};

/** A delegate's decision names the approver it acted for (contract §24). */
const onBehalfOf = (event: { data: { onBehalfOf?: string } }) => (event.data.onBehalfOf ? { onBehalfOf: event.data.onBehalfOf } : {});

/** A reschedule's units before it, where the event tells them (those written before pools, and series changes, do not). */
const previousUnitsOf = (data: { previousUnits?: number }) => (data.previousUnits === undefined ? {} : { previousUnits: data.previousUnits });

function extrasOf(event: BookingEvent): Record<string, unknown> {
  const { booking } = event.data;
  switch (event.type) {
    case 'BookingCreated':
      return event.data.approvers ? { approvers: event.data.approvers } : {};
    case 'BookingConfirmed':
      return { confirmedBy: booking.confirmedBy, confirmedAt: booking.confirmedAt, ...onBehalfOf(event) };
    case 'BookingRescheduled':
      return { previousStartTime: event.data.previousStartTime, previousEndTime: event.data.previousEndTime, ...previousUnitsOf(event.data) };
    case 'BookingCancelled':
      return { cancelledBy: booking.cancelledBy, cancelledAt: booking.cancelledAt, reason: booking.reason, ...onBehalfOf(event) };
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
    case 'BookingApprovalReminderIssued':
      return { approvers: event.data.approvers };
    default:
      return event satisfies never;
  }
}

function bookingEventBody(event: { type: string; data: Record<string, unknown> }): PublishedBody | null {
  if (!isBookingEvent(event)) return null;
  const booking = upcastBooking(event.data.booking);
  return {
    event: publishedEventName[event.type],
    timestamp: event.data.at,
    workspace: booking.workspace,
    data: {
      id: booking.id,
      bookableResourceId: booking.bookableResourceId,
      resourceId: booking.resourceId,
      resourceType: booking.resourceType,
      bookerEmail: booking.bookerEmail,
      bookerProfileId: booking.bookerProfileId,
      createdBy: booking.createdBy,
      startTime: booking.startTime,
      endTime: booking.endTime,
      status: booking.status,
      title: booking.title,
      workspace: booking.workspace,
      isSeriesParent: booking.isSeriesParent,
      recurrenceParentId: booking.recurrenceParentId,
      // Events written before bundles carry none: the booking is in none.
      bundleId: booking.bundleId,
      // Events written before invitations carry none: no calendar event booked it (contract §26).
      calendarUid: booking.calendarUid,
      // Events written before pools carry none: the booking took one unit (contract §21).
      units: booking.units,
      ...extrasOf(event),
    },
  };
}

/**
 * The published form of an event (booking, resource, device/zone deletion), a function of the
 * stored event alone so that a replay sends what the live relay sent; null for an unpublished kind.
 */
export function toEventEnvelope(recorded: StoredEvent): EventEnvelope | null {
  const event = { type: recorded.type, data: recorded.data };
  const body = bookingEventBody(event) ?? resourceEventBody(event) ?? recordEventBody(event) ?? blackoutEventBody(event) ?? waitlistEventBody(event);
  if (!body) return null;
  const { event: name, timestamp, workspace, data } = body;
  return { id: recorded.id, event: name, timestamp, workspace, position: Number(recorded.globalPosition), data };
}

/**
 * The zone or device id an envelope is about (device/zone deletions and blackouts: the record's own id). It is
 * the Kafka key, so that a resource's events share a partition and keep their order.
 */
export function envelopeKey(envelope: EventEnvelope): string {
  const { data } = envelope;
  return String(typeof data.resourceId === 'string' ? data.resourceId : data.id);
}
