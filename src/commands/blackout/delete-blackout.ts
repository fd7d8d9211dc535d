import type { Principal } from '../../domain/access/principal.js';
import { blackoutStreamId } from '../../domain/blackout/blackout.js';
import { decideDeleteBlackout } from '../../domain/blackout/decide-delete-blackout.js';
import { findBlackout, findResourcesByIds } from '../../projections/blackout/blackout-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';

/** Appends BlackoutDeleted to the workspace's blackout stream; a blackout already deleted is unknown (404). */
export async function deleteBlackout(ctx: CommandContext, actor: Principal, id: string): Promise<void> {
  const found = await findBlackout(ctx.db, id);
  if (!found) {
    decideDeleteBlackout({ blackout: null, resources: [] }, actor, ctx.now());
    return;
  }
  await handleCommand(ctx, blackoutStreamId(found.workspace), {
    load: async (db) => {
      const blackout = await findBlackout(db, id);
      return { blackout, resources: await findResourcesByIds(db, blackout?.resourceIds ?? []) };
    },
    decide: (state) => [decideDeleteBlackout(state, actor, ctx.now())],
  });
}
