import type { Temporal } from 'temporal-polyfill';
import { utcText } from '../booking/booking-time.js';
import type { Booking } from '../booking/booking.js';
import type { BookingCreated } from '../booking/booking-events.js';
import type { Resource } from '../resource/resource.js';
import { isDelegationActive, type ApprovalDelegation } from './approval-delegation.js';

/**
 * Who may decide a pending booking besides LV1–LV3 (contract §24): the resource's approvers, then
 * the delegates of theirs active at `now`, each once. Null for a booking that is not pending.
 */
export function pendingApprovers(booking: Booking, resource: Resource, delegations: readonly ApprovalDelegation[], now: Temporal.Instant): string[] | null {
  if (booking.status !== 'pending') return null;
  const approvers = resource.bookingPolicy.approvers;
  const delegates = delegations.filter((d) => approvers.includes(d.approverProfileId) && isDelegationActive(d, now)).map((d) => d.delegateProfileId);
  return [...new Set([...approvers, ...delegates])];
}

/** When booking.approval_reminder is due for a pending booking made at `createdAt`, or null when the resource sends none. */
export function approvalReminderDue(resource: Resource, createdAt: Temporal.Instant): string | null {
  const minutes = resource.bookingPolicy.approvalReminderMinutes;
  return minutes === null ? null : utcText(createdAt.add({ minutes }));
}

/**
 * The creation of a booking (contract §24): a pending one names who may decide it and, on a
 * resource with approvalReminderMinutes, when booking.approval_reminder is due. A series parent
 * only describes the pattern: its occurrences are decided, one by one.
 */
export function bookingCreated(booking: Booking, by: string, resource: Resource, delegations: readonly ApprovalDelegation[], now: Temporal.Instant): BookingCreated {
  const approvers = booking.isSeriesParent ? null : pendingApprovers(booking, resource, delegations, now);
  const approvalReminderAt = approvers && approvalReminderDue(resource, now);
  return {
    type: 'BookingCreated',
    data: { booking, by, at: booking.createdAt, ...(approvers && { approvers }), ...(approvalReminderAt && { approvalReminderAt }) },
  };
}
