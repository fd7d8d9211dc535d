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
 * A change to every booking of a bundle (move, cancel) in one decision over their resources'
 * streams: the bookings read in the items' order, each with its resource, the events appended in
 * one transaction. Answers the bundle as it is afterwards.
 */
export async function handleBundleChange<State extends BookingMoveState>(ctx: CommandContext, bundleId: string, change: BundleChange<State>): Promise<Bundle> {
  let bookings: Booking[] = [];
  const { state, events } = await handleCommandOnStreams<State[], BookingEvent>(ctx, {
    needsOneTransaction: bundlesNeedOneTransaction,
    async streamIds(db) {
      bookings = await findBundleBookings(db, bundleId);
      return [...new Set(bookings.map((b) => resourceStreamId(b.bookableResourceId)))];
    },
    load: (db) => Promise.all(bookings.map(async (booking) => change.loadMore(db, { booking, resource: await findBookedResource(db, booking.bookableResourceId) }))),
    decide: (states) => change.decide(states).map((event) => ({ streamId: resourceStreamId(event.data.booking.bookableResourceId), events: [event] })),
    async inTransaction(trx, states) {
      for (const s of states) await change.inTransactionFor?.(s)?.(trx, [], async () => undefined);
    },
    onConstraintViolation: change.onConstraintViolation,
  });
  const changed = new Map(events.map((e) => (e.data as BookingEvent['data']).booking).map((b) => [b.id, b]));
  return { id: bundleId, bookings: state.map((s) => changed.get(s.booking!.id) ?? s.booking!) };
}
