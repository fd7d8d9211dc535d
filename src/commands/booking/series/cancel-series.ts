import type { Principal } from '../../../domain/access/principal.js';
import type { Booking } from '../../../domain/booking/booking.js';
import { decideCancelSeries } from '../../../domain/booking/series/decide-cancel-series.js';
import { resourceStreamId } from '../../../domain/resource/resource.js';
import { findBooking } from '../../../projections/booking/booking-queries.js';
import type { CommandContext } from '../../command-context.js';
import { handleCommand } from '../../handle-command.js';
import { loadSeries, type LoadedSeries } from '../../placement/load-series.js';
import { loadWaiters, promoting } from '../../placement/promotions.js';

export type CancelledSeries = { parent: Booking; cancelled: string[] };

/** Cancels the series in one append; answers the parent and the ids of the occurrences cancelled. */
export async function cancelSeries(ctx: CommandContext, actor: Principal, parentId: string, reason: string | null): Promise<CancelledSeries> {
  const now = ctx.now();
  const found = await findBooking(ctx.db, parentId);
  // An unknown series has no stream: the decision refuses it in the contract's order (403 before 404).
  const { events } = await handleCommand(ctx, found && resourceStreamId(found.bookableResourceId), {
    load: async (db) => {
      const series = await loadSeries(db, parentId, now);
      return { ...series, waiters: await loadWaiters(ctx, db, series.resource, series.upcoming) };
    },
    // The occurrences' time goes to the waiters in the same append (contract §23).
    decide: promoting(ctx, (state: LoadedSeries) => decideCancelSeries(state, actor, now, reason)),
  });
  // The series' cancellations, without the promotions after them.
  const bookings = events.flatMap((event) => (event.type === 'BookingCancelled' ? [event.data.booking] : []));
  return { parent: bookings.at(-1)!, cancelled: bookings.slice(0, -1).map((b) => b.id) };
}
