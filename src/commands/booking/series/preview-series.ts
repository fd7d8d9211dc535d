import type { Principal } from '../../../domain/access/principal.js';
import { previewSeriesOccurrences, type OccurrencePreview } from '../../../domain/booking/series/preview-series-occurrences.js';
import { workspaceScope } from '../../../domain/access/workspace-scope.js';
import { findRegistration } from '../../../projections/resource/resource-queries.js';
import type { CommandContext } from '../../command-context.js';
import { createSeriesCommand, type CreateSeriesInput } from './create-series-command.js';
import { loadCreateSeriesState, unregisteredSeries } from '../../placement/load-create-series-state.js';

/** What creating the series would meet, occurrence by occurrence; nothing is stored. */
export async function previewSeries(ctx: CommandContext, actor: Principal, input: CreateSeriesInput): Promise<OccurrencePreview[]> {
  const command = createSeriesCommand(input);
  const now = ctx.now();
  const registered = await findRegistration(ctx.db, workspaceScope(actor, input.workspace, '/body/workspace'), input.resourceType, input.resourceId);
  // Without a registration the preview refuses as a creation would (400, 403, then 404).
  const state = registered ? await loadCreateSeriesState(ctx.db, registered.id, actor, command, now) : unregisteredSeries;
  return previewSeriesOccurrences(command, state, actor, now);
}
