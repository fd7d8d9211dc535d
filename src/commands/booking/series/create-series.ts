import type { Principal } from '../../../domain/access/principal.js';
import type { Booking } from '../../../domain/booking/booking.js';
import type { BookingCreated } from '../../../domain/booking/booking-events.js';
import { decideCreateSeries } from '../../../domain/booking/series/decide-create-series.js';
import { bookingWorkspace } from '../../../domain/booking/booking-workspace.js';
import { notFound } from '../../../domain/domain-error.js';
import { resourceStreamId } from '../../../domain/resource/resource.js';
import { findRegistration } from '../../../projections/resource/resource-queries.js';
import type { CommandContext } from '../../command-context.js';
import { handleCommand } from '../../handle-command.js';
import { quotaOrOverlapMeansRetry } from '../quota-hold.js';
import { quotaGuardOfSeries } from './quota-guard-of-series.js';
import { createSeriesCommand, type CreateSeriesInput } from './create-series-command.js';
import { loadCreateSeriesState } from './load-create-series-state.js';

export type CreatedSeries = { parent: Booking; occurrences: Booking[] };

/** Books the whole series in one append to the resource's stream: parent first, then each occurrence. */
export async function createSeries(ctx: CommandContext, actor: Principal, input: CreateSeriesInput): Promise<CreatedSeries> {
  const command = createSeriesCommand(input);
  // One clock reading: the load and every retry expand the same occurrences the decision checks.
  const now = ctx.now();
  const registered = await findRegistration(ctx.db, bookingWorkspace(actor, input.workspace), input.resourceType, input.resourceId);
  if (!registered) {
    // Refuses in the contract's order (400, 403, then 404).
    decideCreateSeries(command, { resource: null, overlapping: [], activeBookingsOfBooker: 0, blackouts: [] }, actor, now);
    throw notFound('resource');
  }
  const { events } = await handleCommand(ctx, resourceStreamId(registered.id), {
    load: (db) => loadCreateSeriesState(db, registered.id, actor, command, now),
    decide: (state) => decideCreateSeries(command, state, actor, now),
    inTransactionFor: quotaGuardOfSeries(command, actor, now),
    onConstraintViolation: quotaOrOverlapMeansRetry,
  });
  const [parent, ...occurrences] = events.map((event) => event.data.booking);
  return { parent: parent!, occurrences };
}
