import type { Booking } from './booking.js';

/**
 * Every booking event carries the whole booking as it is after the change (event-carried state):
 * the read model, the timers and the outgoing envelopes all read it without re-folding history.
 * `by` is the acting token's sub, or "system" for automatic moves; `at` is ISO 8601 UTC.
 */
type BookingEventOf<Type extends string, Extra = object> = {
  type: Type;
  data: { booking: Booking; by: string; at: string } & Extra;
};

/**
 * `approvers`: on a pending booking, who may decide it (the resource's, with their active delegates;
 * contract §24); `approvalReminderAt`: when booking.approval_reminder is due if it is still pending.
 */
export type BookingCreated = BookingEventOf<'BookingCreated', { approvers?: string[]; approvalReminderAt?: string }>;
/** `onBehalfOf`: the approver a delegate decided for (contract §24). */
export type BookingConfirmed = BookingEventOf<'BookingConfirmed', { onBehalfOf?: string }>;
/** `previousUnits` is absent from reschedules written before pools (contract §21) and from series changes, which keep the units. */
export type BookingRescheduled = BookingEventOf<'BookingRescheduled', { previousStartTime: string; previousEndTime: string; previousUnits?: number }>;
export type BookingCancelled = BookingEventOf<'BookingCancelled', { onBehalfOf?: string }>;
export type BookingCheckedIn = BookingEventOf<'BookingCheckedIn'>;
export type BookingCheckedOut = BookingEventOf<'BookingCheckedOut'>;
export type BookingCompleted = BookingEventOf<'BookingCompleted'>;
export type BookingMarkedNoShow = BookingEventOf<'BookingMarkedNoShow', { gracePeriodExpiredAt: string }>;
export type BookingReminderIssued = BookingEventOf<'BookingReminderIssued', { reminderType: 'upcoming' }>;
/** A pending booking still undecided approvalReminderMinutes after it was made (contract §24). */
export type BookingApprovalReminderIssued = BookingEventOf<'BookingApprovalReminderIssued', { approvers: string[] }>;

export type BookingEvent =
  | BookingCreated
  | BookingConfirmed
  | BookingRescheduled
  | BookingCancelled
  | BookingCheckedIn
  | BookingCheckedOut
  | BookingCompleted
  | BookingMarkedNoShow
  | BookingReminderIssued
  | BookingApprovalReminderIssued;

/** The platform event name each booking event is published as (contract §8); a kind left out does not compile. */
export const publishedEventName = {
  BookingCreated: 'booking.create',
  BookingConfirmed: 'booking.confirm',
  BookingRescheduled: 'booking.reschedule',
  BookingCancelled: 'booking.cancel',
  BookingCheckedIn: 'booking.checkin',
  BookingCheckedOut: 'booking.checkout',
  BookingCompleted: 'booking.complete',
  BookingMarkedNoShow: 'booking.no_show',
  BookingReminderIssued: 'booking.reminder',
  BookingApprovalReminderIssued: 'booking.approval_reminder',
} as const satisfies Record<BookingEvent['type'], string>;

/** Every booking event kind: the projections, Kafka and the webhooks follow these. */
export const bookingEventTypes: ReadonlySet<string> = new Set(Object.keys(publishedEventName));

export function isBookingEvent(event: { type: string; data: unknown }): event is BookingEvent {
  return bookingEventTypes.has(event.type);
}

/** The id of the booking a booking event (or BookingArchived) carries; undefined for any other event. */
export function bookingIdOfEvent(event: { type: string; data: unknown }): string | undefined {
  return (event.data as { booking?: { id?: string } } | null)?.booking?.id;
}
