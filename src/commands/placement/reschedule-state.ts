import { instantOf } from '../../domain/booking/booking-time.js';
import type { BookingMoveState } from '../../domain/booking/booking-move-state.js';
import type { RescheduleBooking, RescheduleBookingState } from '../../domain/booking/decide-reschedule-booking.js';
import { occupiedRangesOf } from '../../domain/booking/occupied-range.js';
import type { Executor } from '../../infra/db/database.js';
import { findBlackoutsOverlapping } from '../../projections/blackout/blackout-queries.js';
import { findActiveOverlapping } from '../../projections/booking/booking-queries.js';
import { findQuotaUsages } from '../../projections/quota/quota-queries.js';
import { quotaGuardOfBooking } from './quota-guard-of-booking.js';

/** What a reschedule decides on, given the booking and its resource: the bookings in the way of the new times, the booker's quota usage, the blackouts. */
export function findRescheduleState(command: RescheduleBooking) {
  return async (db: Executor, { booking, resource }: BookingMoveState): Promise<RescheduleBookingState> => {
    if (!booking || (command.startTime === undefined && command.endTime === undefined && command.units === undefined)) return { booking, resource, overlapping: [], blackouts: [] };
    const start = command.startTime ?? instantOf(booking.startTime);
    const end = command.endTime ?? instantOf(booking.endTime);
    // The new times occupy with the buffers in force, as the decision will.
    const [occupied] = occupiedRangesOf([{ start, end }], resource);
    const [overlapping, quotas, blackouts] = await Promise.all([
      findActiveOverlapping(db, booking.bookableResourceId, occupied!.start, occupied!.end),
      findQuotaUsages(db, booking.workspace, booking.bookerProfileId, start, booking.id),
      findBlackoutsOverlapping(db, booking.workspace, start, end),
    ]);
    return { booking, resource, overlapping, quotas, blackouts };
  };
}

/** The booker's hold, on the times the decision checked (those of the command, or the booking's). */
export const rescheduleQuotaHold =
  (command: RescheduleBooking) =>
  ({ booking, resource, quotas }: RescheduleBookingState) =>
    booking && quotas ? quotaGuardOfBooking(booking.workspace, booking.bookerProfileId, command.startTime ?? instantOf(booking.startTime), booking.id)(resource, quotas) : undefined;
