import { decideRename } from '../../domain/resource/decide-resource.js';
import { resourceStreamId, type ResourceType } from '../../domain/resource/resource.js';
import { findRegistration, findResource } from '../../projections/resource/resource-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';

/** Gives the resource the name its zone or device now has. True when it changed. */
export async function renameResource(ctx: CommandContext, id: string, name: string, by: string): Promise<boolean> {
  const { events } = await handleCommand(ctx, resourceStreamId(id), {
    load: (db) => findResource(db, id),
    decide: (resource) => (resource ? decideRename(resource, name, by, ctx.now()) : []),
  });
  return events.length > 0;
}

/** The registration of this zone or device in the workspace, if any, takes the record's name. */
export async function renameRegistration(ctx: CommandContext, kind: ResourceType, workspace: string, recordId: string, name: string, by: string): Promise<void> {
  const registered = await findRegistration(ctx.db, workspace, kind, recordId);
  if (registered && registered.resourceName !== name) await renameResource(ctx, registered.id, name, by);
}
