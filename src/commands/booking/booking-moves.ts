import { isAdmin, type Principal } from '../../domain/access/principal.js';
import type { BookingDecisionState } from '../../domain/booking/booking-decision-state.js';
import type { BookingMoveState } from '../../domain/booking/booking-move-state.js';
import { findReceivedDelegations } from '../../projections/approval/approval-delegation-queries.js';
import type { Booking } from '../../domain/booking/booking.js';
import { decideCancelBooking } from '../../domain/booking/decide-cancel-booking.js';
import { decideCheckInBooking } from '../../domain/booking/decide-check-in-booking.js';
import { decideCheckOutBooking } from '../../domain/booking/decide-check-out-booking.js';
import { decideConfirmBooking } from '../../domain/booking/decide-confirm-booking.js';
import { notFound } from '../../domain/domain-error.js';
import type { CommandContext } from '../command-context.js';
import { promoting, withWaiters } from '../placement/promotions.js';
import { handleBookingMove, nothingMore, type LoadMore } from '../placement/handle-booking-move.js';

/** A user's move answers the booking afterwards; the decision has refused an unknown one already. */
const updated = (booking: Booking | null): Booking => {
  if (!booking) throw notFound('booking');
  return booking;
};

/**
 * The delegations the actor holds, for a confirm or decline by an approver's delegate (contract §24):
 * read only where a delegation can decide, on another user's booking for an actor below LV3, so
 * that a booker's own cancel reads nothing more. Read whatever the booking's status: a delegate
 * who lost the race to decide it learns so (409), as the approver does.
 */
const delegationsOf =
  (ctx: CommandContext, actor: Principal): LoadMore<BookingDecisionState> =>
  async (db, base) => {
    const { booking } = base;
    const mayDelegate = !isAdmin(actor) && booking !== null && booking.bookerProfileId !== actor.sub;
    return { ...base, delegations: mayDelegate ? await findReceivedDelegations(db, actor.sub, new Date(ctx.now().epochMilliseconds)) : [] };
  };

export async function confirmBooking(ctx: CommandContext, actor: Principal, id: string): Promise<Booking> {
  return updated(await handleBookingMove(ctx, id, (state) => [decideConfirmBooking(state, actor, ctx.now())], delegationsOf(ctx, actor)));
}

export async function cancelBooking(ctx: CommandContext, actor: Principal, id: string, reason: string | null): Promise<Booking> {
  return updated(await handleBookingMove(ctx, id, promoting(ctx, (state: BookingDecisionState) => [decideCancelBooking(state, actor, ctx.now(), reason)]), withWaiters(ctx, delegationsOf(ctx, actor))));
}

export async function checkInBooking(ctx: CommandContext, actor: Principal, id: string): Promise<Booking> {
  return updated(await handleBookingMove(ctx, id, (state) => [decideCheckInBooking(state, actor, ctx.now())]));
}

export async function checkOutBooking(ctx: CommandContext, actor: Principal, id: string): Promise<Booking> {
  return updated(await handleBookingMove(ctx, id, promoting(ctx, (state: BookingMoveState) => [decideCheckOutBooking(state, actor, ctx.now())]), withWaiters(ctx, nothingMore)));
}
