import type { Principal } from '../../../domain/access/principal.js';
import type { Booking } from '../../../domain/booking/booking.js';
import type { BookingCreated } from '../../../domain/booking/booking-events.js';
import { decideCreateSeries } from '../../../domain/booking/series/decide-create-series.js';
import { workspaceScope } from '../../../domain/access/workspace-scope.js';
import { resourceStreamId } from '../../../domain/resource/resource.js';
import { findRegistration } from '../../../projections/resource/resource-queries.js';
import type { CommandContext } from '../../command-context.js';
import { handleCommand } from '../../handle-command.js';
import { quotaOrOverlapMeansRetry } from '../../placement/quota-hold.js';
import { quotaGuardOfSeries } from '../../placement/quota-guard-of-series.js';
import { createSeriesCommand, type CreateSeriesInput } from './create-series-command.js';
import { loadCreateSeriesState, unregisteredSeries } from '../../placement/load-create-series-state.js';

export type CreatedSeries = { parent: Booking; occurrences: Booking[] };

/** Books the whole series in one append to the resource's stream: parent first, then each occurrence. */
export async function createSeries(ctx: CommandContext, actor: Principal, input: CreateSeriesInput): Promise<CreatedSeries> {
  const command = createSeriesCommand(input);
  // One clock reading: the load and every retry expand the same occurrences the decision checks.
  const now = ctx.now();
  const registered = await findRegistration(ctx.db, workspaceScope(actor, input.workspace, '/body/workspace'), input.resourceType, input.resourceId);
  // Without a registration there is no stream: the decision refuses on a state without resource (400, 403, then 404).
  const { events } = await handleCommand(ctx, registered && resourceStreamId(registered.id), {
    load: async (db) => (registered ? loadCreateSeriesState(db, registered.id, actor, command, now) : unregisteredSeries),
    decide: (state) => decideCreateSeries(command, state, actor, now),
    inTransactionFor: quotaGuardOfSeries(command, actor),
    onConstraintViolation: quotaOrOverlapMeansRetry,
  });
  const [parent, ...occurrences] = events.map((event) => event.data.booking);
  return { parent: parent!, occurrences };
}
