import type { Principal } from '../../../domain/access/principal.js';
import { previewSeriesOccurrences, type OccurrencePreview } from '../../../domain/booking/series/preview-series-occurrences.js';
import { bookingWorkspace } from '../../../domain/booking/booking-workspace.js';
import { notFound } from '../../../domain/domain-error.js';
import { findRegistration } from '../../../projections/resource/resource-queries.js';
import type { CommandContext } from '../../command-context.js';
import { createSeriesCommand, type CreateSeriesInput } from './create-series-command.js';
import { loadCreateSeriesState } from './load-create-series-state.js';

/** What creating the series would meet, occurrence by occurrence; nothing is stored. */
export async function previewSeries(ctx: CommandContext, actor: Principal, input: CreateSeriesInput): Promise<OccurrencePreview[]> {
  const command = createSeriesCommand(input);
  const now = ctx.now();
  const registered = await findRegistration(ctx.db, bookingWorkspace(actor, input.workspace), input.resourceType, input.resourceId);
  if (!registered) {
    previewSeriesOccurrences(command, { resource: null, overlapping: [], activeBookingsOfBooker: 0, blackouts: [] }, actor, now);
    throw notFound('resource');
  }
  const state = await loadCreateSeriesState(ctx.db, registered.id, actor, command, now);
  return previewSeriesOccurrences(command, state, actor, now);
}
