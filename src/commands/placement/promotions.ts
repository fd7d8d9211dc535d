import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { BookingEvent } from '../../domain/booking/booking-events.js';
import type { BookingMoveState } from '../../domain/booking/booking-move-state.js';
import { resourceStreamId, type Resource } from '../../domain/resource/resource.js';
import { holdsSlot, promoteWaiters, reachOfFreeing, type Waiter } from '../../domain/waitlist/promote-waiters.js';
import type { Booking } from '../../domain/booking/booking.js';
import type { WaitlistEvent } from '../../domain/waitlist/waitlist-events.js';
import type { Executor } from '../../infra/db/database.js';
import { waitingEntriesOf } from '../../projections/waitlist/waitlist-queries.js';
import { findBookingCreateStates } from '../../projections/booking/create-states-query.js';
import { findApproverDelegations, quotaBoundState } from './placement-state.js';
import type { CommandContext } from '../command-context.js';
import type { LoadMore } from './handle-booking-move.js';

/** A freeing command's state with the resource's queue (contract §23, ARCHITECTURE "The waitlist lives in the resource's stream"). */
export type WithWaiters = { waiters: readonly Waiter[] };

/**
 * The waiting entries of the resource, first made first, each with the state its create decides
 * on (none on a removed resource); with `freed`, only those the freeing of these bookings may let in.
 */
export async function loadWaiters(ctx: CommandContext, db: Executor, resource: Resource | null, freed?: readonly Booking[]): Promise<Waiter[]> {
  if (!resource || resource.removed) return [];
  const entries = await waitingEntriesOf(db, resource.id, freed && reachOfFreeing(freed.filter(holdsSlot), resource));
  if (entries.length === 0) return [];
  // One statement for every waiter: each row is what that waiter's create alone would read.
  const asks = entries.map((entry) => ({ booker: entry.bookerProfileId, from: Temporal.Instant.from(entry.startTime), to: Temporal.Instant.from(entry.endTime) }));
  const reads = await findBookingCreateStates(db, resourceStreamId(resource.id), resource.id, asks);
  const delegations = await findApproverDelegations(db, reads[0]!.resource, ctx.now());
  return entries.map((entry, i) => {
    const { streamRevision, ...read } = reads[i]!;
    return { entry, state: quotaBoundState(read, asks[i]!.from, delegations) };
  });
}

/** A move's state loader that also reads the queue of the booking's resource, near the booking's times. */
export function withWaiters<State extends BookingMoveState>(ctx: CommandContext, loadMore: LoadMore<State>): LoadMore<State & WithWaiters> {
  return async (db, base) => {
    const [state, waiters] = await Promise.all([loadMore(db, base), loadWaiters(ctx, db, base.resource, base.booking ? [base.booking] : [])]);
    return { ...state, waiters };
  };
}

/** A freeing decision followed, in the same append, by the promotions it allows; a decision that changes nothing promotes nothing. */
export function promoting<State>(ctx: CommandContext, decide: (state: State) => BookingEvent[]): (state: State & WithWaiters) => (BookingEvent | WaitlistEvent)[] {
  return (state) => {
    const events = decide(state);
    return events.length === 0 ? events : [...events, ...promoteWaiters(events, state.waiters, ctx.now(), randomUUID)];
  };
}
