import type { Booking } from '../../domain/booking/booking.js';
import type { BookingEvent } from '../../domain/booking/booking-events.js';
import type { TimerKind } from '../../infra/db/tables/timers.table.js';

/**
 * A planned timer; `plusGracePeriod` adds the resource's current grace period to dueAt when stored,
 * `minusApprovalDeadline` takes its approvalDeadlineMinutes off (contract §24).
 */
export type PlannedTimer = { kind: TimerKind; dueAt: Date; plusGracePeriod?: true; minusApprovalDeadline?: true };

/** The kinds bookingTimers plans from the booking's state alone. */
export const timerKinds: readonly TimerKind[] = ['reminder', 'no_show', 'complete', 'expire_pending'];

/** Every kind, the approval reminder (planned by its creation's event) included. */
export const allTimerKinds: readonly TimerKind[] = [...timerKinds, 'approval_reminder'];

/**
 * The approval reminder (contract §24): planned when a pending booking's creation names its time,
 * dropped once issued or once the booking is no longer pending; undefined leaves it as it is.
 */
export function approvalReminderTimer(event: BookingEvent): PlannedTimer | null | undefined {
  if (event.type === 'BookingCreated') return event.data.approvalReminderAt ? { kind: 'approval_reminder', dueAt: new Date(event.data.approvalReminderAt) } : undefined;
  if (event.type === 'BookingApprovalReminderIssued' || event.data.booking.status !== 'pending') return null;
  return undefined;
}

/**
 * The timers a booking in this state needs. A reminder is planned at the start and fired
 * REMINDER_MINUTES ahead of it by the worker (the lead is configuration, not history). Completion
 * is planned at check-in: a booking nobody checked into ends as no_show, never as completed, even
 * when both are overdue after a restart. Series parents only describe the pattern and never move
 * by themselves.
 */
export function bookingTimers(booking: Booking): PlannedTimer[] {
  if (booking.isSeriesParent) return [];
  const start = new Date(booking.startTime);
  const end = new Date(booking.endTime);
  switch (booking.status) {
    case 'pending':
      return [
        { kind: 'reminder', dueAt: start },
        { kind: 'expire_pending', dueAt: start, minusApprovalDeadline: true },
      ];
    case 'confirmed':
      if (booking.checkedInAt) return [{ kind: 'complete', dueAt: end }];
      return [
        { kind: 'reminder', dueAt: start },
        { kind: 'no_show', dueAt: start, plusGracePeriod: true },
      ];
    case 'completed':
    case 'cancelled':
    case 'no_show':
      return [];
    default:
      return booking.status satisfies never;
  }
}
