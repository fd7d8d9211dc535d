import type { Principal } from '../../domain/access/principal.js';
import { decideUpdate, type ResourcePatch } from '../../domain/resource/decide-resource.js';
import { resourceStreamId, type Resource } from '../../domain/resource/resource.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';
import { loadVisibleResource } from './load-visible-resource.js';

export async function updateResource(ctx: CommandContext, actor: Principal, id: string, patch: ResourcePatch): Promise<Resource> {
  await handleCommand(ctx, resourceStreamId(id), {
    load: (db) => loadVisibleResource(db, actor, id),
    decide: (resource) => [decideUpdate(patch, resource, actor, ctx.now())],
  });
  return loadVisibleResource(ctx.db, actor, id);
}
