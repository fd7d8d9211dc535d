import { Temporal } from 'temporal-polyfill';
import type { Booking } from '../booking/booking.js';
import type { BookingApprovalReminderIssued } from '../booking/booking-events.js';
import { instantOf, utcText } from '../booking/booking-time.js';
import type { Resource } from '../resource/resource.js';
import type { ApprovalDelegation } from './approval-delegation.js';
import { pendingApprovers } from './pending-approvers.js';

/**
 * booking.approval_reminder for a booking still pending approvalReminderMinutes after it was made
 * (contract §24), naming who may decide it now. The booking does not change; a repeat is kept out
 * by the event id (see the command). No events when it no longer applies.
 */
export function decideApprovalReminder(
  booking: Booking | null,
  resource: Resource | null,
  delegations: readonly ApprovalDelegation[],
  now: Temporal.Instant,
): BookingApprovalReminderIssued[] {
  if (!booking || booking.isSeriesParent || !resource) return [];
  const minutes = resource.bookingPolicy.approvalReminderMinutes;
  if (minutes === null || Temporal.Instant.compare(now, instantOf(booking.createdAt).add({ minutes })) < 0) return [];
  const approvers = pendingApprovers(booking, resource, delegations, now);
  if (!approvers) return [];
  return [{ type: 'BookingApprovalReminderIssued', data: { booking, by: 'system', at: utcText(now), approvers } }];
}
