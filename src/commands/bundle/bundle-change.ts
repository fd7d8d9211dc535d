import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Booking } from '../../domain/booking/booking.js';
import type { BookingEvent } from '../../domain/booking/booking-events.js';
import type { BookingMoveState } from '../../domain/booking/booking-move-state.js';
import type { DomainError } from '../../domain/domain-error.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import type { DB } from '../../infra/db/schema.js';
import type { InTransaction } from '../../infra/event-store/event-store.js';
import { findBookedResource } from '../../projections/booking/booking-queries.js';
import { findBundleBookings } from '../../projections/booking/bundle-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommandOnStreams, type AppendFailure } from '../handle-command.js';
import { overlapMeansRetry } from '../placement/overlap-means-retry.js';
import { promoteWaiters } from '../../domain/waitlist/promote-waiters.js';
import type { WaitlistEvent } from '../../domain/waitlist/waitlist-events.js';
import { withWaiters, type WithWaiters } from '../placement/promotions.js';
import { bundlesNeedOneTransaction, type Bundle } from './create-bundle.js';

export type BundleChange<State extends BookingMoveState> = {
  /** What each booking's decision needs beyond the booking and its resource. */
  loadMore: (db: Executor, base: BookingMoveState) => Promise<State>;
  decide: (states: State[]) => BookingEvent[];
  /** Work in the appends' transaction for one booking's state (a quota's hold). */
  inTransactionFor?: (state: State) => InTransaction<Transaction<DB>> | undefined;
  onConstraintViolation?: (error: AppendFailure) => DomainError | 'retry' | undefined;
};

/**
 * The events of each booking's resource: the bundle's change to it, then the promotions of that
 * resource's waiters the change allows (contract §23), in the same append as the freeing.
 */
function withPromotions<State extends BookingMoveState & WithWaiters>(ctx: CommandContext, states: readonly State[], changed: readonly BookingEvent[]) {
  return states.flatMap((state) => {
    const own = changed.filter((event) => event.data.booking.id === state.booking!.id);
    if (own.length === 0) return [];
    const events: (BookingEvent | WaitlistEvent)[] = [...own, ...promoteWaiters(own, state.waiters, ctx.now(), randomUUID)];
    return [{ streamId: resourceStreamId(state.booking!.bookableResourceId), events }];
  });
}

/**
 * A change to every booking of a bundle (move, cancel) in one decision over their resources'
 * streams: the bookings read in the items' order, each with its resource and the waiters its
 * freeing may let in, the events (and the promotions) appended in one transaction. Answers the
 * bundle as it is afterwards.
 */
export async function handleBundleChange<State extends BookingMoveState>(ctx: CommandContext, bundleId: string, change: BundleChange<State>): Promise<Bundle> {
  let bookings: Booking[] = [];
  const loadMore = withWaiters(ctx, change.loadMore);
  const { state, events } = await handleCommandOnStreams<(State & WithWaiters)[], BookingEvent | WaitlistEvent>(ctx, {
    needsOneTransaction: bundlesNeedOneTransaction,
    async streamIds(db) {
      bookings = await findBundleBookings(db, bundleId);
      return [...new Set(bookings.map((b) => resourceStreamId(b.bookableResourceId)))];
    },
    load: (db) => Promise.all(bookings.map(async (booking) => loadMore(db, { booking, resource: await findBookedResource(db, booking.bookableResourceId) }))),
    decide: (states) => withPromotions(ctx, states, change.decide(states)),
    inTransactionFor(states) {
      const works = states.flatMap((s) => change.inTransactionFor?.(s) ?? []);
      if (works.length === 0) return undefined;
      return async (trx) => {
        for (const work of works) await work(trx, [], async () => undefined);
      };
    },
    // A promotion's create meets the append's guards as any create does.
    onConstraintViolation: change.onConstraintViolation ?? overlapMeansRetry,
  });
  const changed = new Map(events.flatMap((e) => ('booking' in e.data ? [e.data.booking as Booking] : [])).map((b) => [b.id, b]));
  return { id: bundleId, bookings: state.map((s) => changed.get(s.booking!.id) ?? s.booking!) };
}
