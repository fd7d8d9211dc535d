import { derivedEventId, isDuplicateEventId } from '../derived-event-id.js';
import type { Booking } from '../../domain/booking/booking.js';
import type { BookingMoveState } from '../../domain/booking/booking-move-state.js';
import { decideCompletion, decideExpiry, decideNoShow, decideReminder } from '../../domain/booking/decide-system-moves.js';
import type { CommandContext } from '../command-context.js';
import { promoting, withWaiters } from '../placement/promotions.js';
import { handleBookingMove, nothingMore } from '../placement/handle-booking-move.js';

/*
 * The moves the timer worker sends. Each is a no-op when it no longer applies (the booking moved
 * on, was rescheduled, or the timer fired twice or late); `by` is "system".
 */

export async function markNoShow(ctx: CommandContext, bookingId: string): Promise<void> {
  await handleBookingMove(ctx, bookingId, promoting(ctx, ({ booking, resource }: BookingMoveState) => decideNoShow(booking, resource, ctx.now())), withWaiters(ctx, nothingMore));
}

export async function completeBooking(ctx: CommandContext, bookingId: string): Promise<void> {
  await handleBookingMove(ctx, bookingId, ({ booking }) => decideCompletion(booking, ctx.now()));
}

export async function expirePendingBooking(ctx: CommandContext, bookingId: string): Promise<void> {
  await handleBookingMove(ctx, bookingId, ({ booking, resource }) => decideExpiry(booking, resource, ctx.now()));
}

/** One reminder per booking and start time: the event id is derived from both. */
export const reminderEventId = (booking: Pick<Booking, 'id' | 'startTime'>) => derivedEventId(`booking-reminder:${booking.id}:${booking.startTime}`);

/** booking.reminder REMINDER_MINUTES (config, default 15) before the start; issued once per start time. */
export async function issueReminder(ctx: CommandContext & { config?: { reminderMinutes: number } }, bookingId: string): Promise<void> {
  const reminderMinutes = ctx.config?.reminderMinutes ?? 15;
  try {
    await handleBookingMove(ctx, bookingId, ({ booking }) =>
      decideReminder(booking, ctx.now(), reminderMinutes).map((event) => ({ ...event, id: reminderEventId(event.data.booking) })),
    );
  } catch (error) {
    if (!isDuplicateEventId(error)) throw error;
  }
}
