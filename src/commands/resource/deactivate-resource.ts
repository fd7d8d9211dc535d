import { decideDeactivate } from '../../domain/resource/decide-resource.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import { findResource } from '../../projections/resource/resource-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';

/** The device service lost the zone or device: the resource stays, inactive. True when it changed. */
export async function deactivateResource(ctx: CommandContext, id: string, reason: string): Promise<boolean> {
  const { events } = await handleCommand(ctx, resourceStreamId(id), {
    load: (db) => findResource(db, id),
    decide: (resource) => (resource ? decideDeactivate(resource, reason, ctx.now()) : []),
  });
  return events.length > 0;
}
