import type { Principal } from '../../domain/access/principal.js';
import type { Booking } from '../../domain/booking/booking.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { decideRescheduleBooking, type RescheduleBooking, type RescheduleBookingState } from '../../domain/booking/decide-reschedule-booking.js';
import { notFound } from '../../domain/domain-error.js';
import { checkUnits } from '../../domain/resource/resource-units.js';
import type { CommandContext } from '../command-context.js';
import { promoting, withWaiters, type WithWaiters } from '../placement/promotions.js';
import { handleBookingMove } from '../placement/handle-booking-move.js';
import { quotaOrOverlapMeansRetry } from '../placement/quota-hold.js';
import { findRescheduleState, rescheduleQuotaHold } from '../placement/reschedule-state.js';

export type RescheduleBookingInput = { startTime?: string; endTime?: string; title?: string; units?: number };

export async function rescheduleBooking(ctx: CommandContext, actor: Principal, id: string, input: RescheduleBookingInput): Promise<Booking> {
  const command: RescheduleBooking = {
    startTime: input.startTime === undefined ? undefined : parseClientInstant(input.startTime, '/body/startTime'),
    endTime: input.endTime === undefined ? undefined : parseClientInstant(input.endTime, '/body/endTime'),
    title: input.title,
    units: input.units === undefined ? undefined : checkUnits(input.units, '/body/units'),
  };
  const booking = await handleBookingMove<RescheduleBookingState & WithWaiters>(
    ctx,
    id,
    promoting(ctx, (state: RescheduleBookingState) => decideRescheduleBooking(command, state, actor, ctx.now())),
    withWaiters(ctx, findRescheduleState(command)),
    { inTransactionFor: rescheduleQuotaHold(command), onConstraintViolation: quotaOrOverlapMeansRetry },
  );
  if (!booking) throw notFound('booking');
  return booking;
}
