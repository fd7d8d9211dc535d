import type { Principal } from '../../../domain/access/principal.js';
import type { Booking } from '../../../domain/booking/booking.js';
import type { BookingCancelled } from '../../../domain/booking/booking-events.js';
import { decideCancelSeries } from '../../../domain/booking/series/decide-cancel-series.js';
import { notFound } from '../../../domain/domain-error.js';
import { resourceStreamId } from '../../../domain/resource/resource.js';
import { findBooking } from '../../../projections/booking/booking-queries.js';
import type { CommandContext } from '../../command-context.js';
import { handleCommand } from '../../handle-command.js';
import { loadSeries } from './load-series.js';

export type CancelledSeries = { parent: Booking; cancelled: string[] };

/** Cancels the series in one append; answers the parent and the ids of the occurrences cancelled. */
export async function cancelSeries(ctx: CommandContext, actor: Principal, parentId: string, reason: string | null): Promise<CancelledSeries> {
  const now = ctx.now();
  const found = await findBooking(ctx.db, parentId);
  if (!found) {
    decideCancelSeries({ parent: null, resource: null, upcoming: [] }, actor, now, reason);
    throw notFound('series');
  }
  const { events } = await handleCommand(ctx, resourceStreamId(found.bookableResourceId), {
    load: (db) => loadSeries(db, parentId, now),
    decide: (state) => decideCancelSeries(state, actor, now, reason),
  });
  const bookings = events.map((event) => event.data.booking);
  return { parent: bookings.at(-1)!, cancelled: bookings.slice(0, -1).map((b) => b.id) };
}
