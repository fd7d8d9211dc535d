import type { Principal } from '../../domain/access/principal.js';
import type { Booking } from '../../domain/booking/booking.js';
import { instantOf, parseClientInstant } from '../../domain/booking/booking-time.js';
import { decideRescheduleBooking, type RescheduleBooking, type RescheduleBookingState } from '../../domain/booking/decide-reschedule-booking.js';
import { notFound } from '../../domain/domain-error.js';
import { findBlackoutsOverlapping } from '../../projections/blackouts/blackout-queries.js';
import { findActiveOverlapping } from '../../projections/bookings/booking-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleBookingMove } from './handle-booking-move.js';

export type RescheduleBookingInput = { startTime?: string; endTime?: string; title?: string };

export async function rescheduleBooking(ctx: CommandContext, actor: Principal, id: string, input: RescheduleBookingInput): Promise<Booking> {
  const command: RescheduleBooking = {
    startTime: input.startTime === undefined ? undefined : parseClientInstant(input.startTime, '/body/startTime'),
    endTime: input.endTime === undefined ? undefined : parseClientInstant(input.endTime, '/body/endTime'),
    title: input.title,
  };
  const booking = await handleBookingMove<RescheduleBookingState>(
    ctx,
    id,
    (state) => decideRescheduleBooking(command, state, actor, ctx.now()),
    async (db, { booking, resource }) => {
      if (!booking || (command.startTime === undefined && command.endTime === undefined)) return { booking, resource, overlapping: [], blackouts: [] };
      const start = command.startTime ?? instantOf(booking.startTime);
      const end = command.endTime ?? instantOf(booking.endTime);
      const [overlapping, blackouts] = await Promise.all([
        findActiveOverlapping(db, booking.bookableResourceId, start, end),
        findBlackoutsOverlapping(db, booking.workspace, start, end),
      ]);
      return { booking, resource, overlapping, blackouts };
    },
  );
  if (!booking) throw notFound('booking');
  return booking;
}
