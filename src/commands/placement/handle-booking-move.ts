import type { Booking } from '../../domain/booking/booking.js';
import { isBookingEvent, type BookingEvent } from '../../domain/booking/booking-events.js';
import type { WaitlistEvent } from '../../domain/waitlist/waitlist-events.js';
import type { BookingMoveState } from '../../domain/booking/booking-move-state.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { findBookedResource, findBooking } from '../../projections/booking/booking-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand, type CommandSpec } from '../handle-command.js';
import { overlapMeansRetry } from './overlap-means-retry.js';

/** Reads what a move needs beyond the booking and its resource (e.g. the bookings in the way). */
export type LoadMore<State extends BookingMoveState> = (db: Executor, base: BookingMoveState) => Promise<State>;

/** A move's events: the booking's, and after a freeing the promotions of the waitlist (contract §23). */
type MoveEvent = BookingEvent | WaitlistEvent;

/** What a move may add to the append: work in its transaction, retries of its own. */
export type MoveOptions<State> = Pick<CommandSpec<State, MoveEvent>, 'inTransactionFor' | 'onConstraintViolation'>;

/** No more than the booking and its resource. */
export const nothingMore = async (_db: Executor, base: BookingMoveState) => base;

/**
 * One move of one booking, on its resource's stream. An unknown booking is still handed to the
 * decision, which refuses it in the contract's order (403 before 404) or, for a system move, does
 * nothing. Answers the booking as it is afterwards (null when there is none), whatever promotions follow.
 */
export async function handleBookingMove<State extends BookingMoveState>(
  ctx: CommandContext,
  bookingId: string,
  decide: (state: State) => MoveEvent[],
  loadMore: LoadMore<State> = nothingMore as LoadMore<State>,
  options: MoveOptions<State> = {},
): Promise<Booking | null> {
  const found = await findBooking(ctx.db, bookingId);
  const { state, events } = await handleCommand(ctx, found && resourceStreamId(found.bookableResourceId), {
    load: async (db) => {
      if (!found) return loadMore(db, { booking: null, resource: null });
      const [booking, resource] = await Promise.all([findBooking(db, bookingId), findBookedResource(db, found.bookableResourceId)]);
      return loadMore(db, { booking, resource });
    },
    decide,
    onConstraintViolation: overlapMeansRetry,
    ...options,
  });
  const last = events.filter((event) => isBookingEvent(event) && event.data.booking.id === bookingId).at(-1) as BookingEvent | undefined;
  return last ? last.data.booking : state.booking;
}
