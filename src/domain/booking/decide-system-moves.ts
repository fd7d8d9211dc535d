import { Temporal } from 'temporal-polyfill';
import type { Resource } from '../resource/resource.js';
import type { Booking } from './booking.js';
import type { BookingCancelled, BookingCompleted, BookingMarkedNoShow, BookingReminderIssued } from './booking-events.js';
import { instantOf, utcText } from './booking-time.js';
import { cancelled } from './booking-cancelled.js';

/*
 * Moves the timer worker asks for. Each answers no events when the move no longer applies (the
 * booking changed, was rescheduled, or the timer fired twice or late), never an error.
 */

const system = 'system';
export const notConfirmedBeforeStart = 'not confirmed before start';

const isSingle = (booking: Booking | null): booking is Booking => booking !== null && !booking.isSeriesParent;
const reached = (now: Temporal.Instant, instant: Temporal.Instant) => Temporal.Instant.compare(now, instant) >= 0;

/** confirmed, never checked in, gracePeriodMinutes after its start → no_show. */
export function decideNoShow(booking: Booking | null, resource: Resource | null, now: Temporal.Instant): BookingMarkedNoShow[] {
  if (!isSingle(booking) || booking.status !== 'confirmed' || booking.checkedInAt !== null) return [];
  const graceMinutes = resource?.bookingPolicy.gracePeriodMinutes ?? 0;
  const expired = instantOf(booking.startTime).add({ minutes: graceMinutes });
  if (!reached(now, expired)) return [];
  const at = utcText(now);
  return [
    {
      type: 'BookingMarkedNoShow',
      data: { booking: { ...booking, status: 'no_show', updatedAt: at }, by: system, at, gracePeriodExpiredAt: utcText(expired) },
    },
  ];
}

/** confirmed at its end without checkout → completed. */
export function decideCompletion(booking: Booking | null, now: Temporal.Instant): BookingCompleted[] {
  if (!isSingle(booking) || booking.status !== 'confirmed' || !reached(now, instantOf(booking.endTime))) return [];
  const at = utcText(now);
  return [{ type: 'BookingCompleted', data: { booking: { ...booking, status: 'completed', updatedAt: at }, by: system, at } }];
}

export const notApprovedInTime = 'not approved in time';

/**
 * Still pending at its start → cancelled by the system; on a resource with an
 * approvalDeadlineMinutes, already that many minutes before its start (contract §24).
 */
export function decideExpiry(booking: Booking | null, resource: Resource | null, now: Temporal.Instant): BookingCancelled[] {
  if (!isSingle(booking) || booking.status !== 'pending') return [];
  const deadlineMinutes = resource?.bookingPolicy.approvalDeadlineMinutes ?? null;
  const start = instantOf(booking.startTime);
  if (deadlineMinutes !== null && reached(now, start.subtract({ minutes: deadlineMinutes }))) return [cancelled(booking, system, now, notApprovedInTime)];
  if (!reached(now, start)) return [];
  return [cancelled(booking, system, now, notConfirmedBeforeStart)];
}

/**
 * booking.reminder for an active booking from reminderMinutes before its start until the start.
 * The booking does not change; a repeat for the same start is kept out by the event id (see the command).
 */
export function decideReminder(booking: Booking | null, now: Temporal.Instant, reminderMinutes: number): BookingReminderIssued[] {
  if (!isSingle(booking) || (booking.status !== 'pending' && booking.status !== 'confirmed')) return [];
  const start = instantOf(booking.startTime);
  if (!reached(now, start.subtract({ minutes: reminderMinutes })) || reached(now, start)) return [];
  return [{ type: 'BookingReminderIssued', data: { booking, by: system, at: utcText(now), reminderType: 'upcoming' } }];
}
