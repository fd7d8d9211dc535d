import type { Booking } from '../../domain/booking/booking.js';
import type { BookingEvent } from '../../domain/booking/booking-events.js';
import type { BookingMoveState } from '../../domain/booking/booking-move-state.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { findBookedResource, findBooking } from '../../projections/booking/booking-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand, type CommandSpec } from '../handle-command.js';
import { overlapMeansRetry } from './overlap-means-retry.js';

/** Reads what a move needs beyond the booking and its resource (e.g. the bookings in the way). */
export type LoadMore<State extends BookingMoveState> = (db: Executor, base: BookingMoveState) => Promise<State>;

/** What a move may add to the append: work in its transaction, retries of its own. */
export type MoveOptions<State> = Pick<CommandSpec<State, BookingEvent>, 'inTransactionFor' | 'onConstraintViolation'>;

const nothingMore = async (_db: Executor, base: BookingMoveState) => base;

/**
 * One move of one booking, on its resource's stream. An unknown booking is still handed to the
 * decision, which refuses it in the contract's order (403 before 404) or, for a system move, does
 * nothing. Answers the booking as it is afterwards (null when there is none).
 */
export async function handleBookingMove<State extends BookingMoveState>(
  ctx: CommandContext,
  bookingId: string,
  decide: (state: State) => BookingEvent[],
  loadMore: LoadMore<State> = nothingMore as LoadMore<State>,
  options: MoveOptions<State> = {},
): Promise<Booking | null> {
  const found = await findBooking(ctx.db, bookingId);
  if (!found) {
    decide(await loadMore(ctx.db, { booking: null, resource: null }));
    return null;
  }
  const { state, events } = await handleCommand(ctx, resourceStreamId(found.bookableResourceId), {
    load: async (db) => {
      const [booking, resource] = await Promise.all([findBooking(db, bookingId), findBookedResource(db, found.bookableResourceId)]);
      return loadMore(db, { booking, resource });
    },
    decide,
    onConstraintViolation: overlapMeansRetry,
    ...options,
  });
  const last = events.at(-1);
  return last ? last.data.booking : state.booking;
}
