import type { Principal } from '../../domain/access/principal.js';
import { decideRemove } from '../../domain/resource/decide-resource.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';
import { loadVisibleResource } from './load-visible-resource.js';

export async function removeResource(ctx: CommandContext, actor: Principal, id: string): Promise<void> {
  await handleCommand(ctx, resourceStreamId(id), {
    load: (db) => loadVisibleResource(db, actor, id),
    decide: (resource) => [decideRemove(resource, actor, ctx.now())],
  });
}
