import type { Principal } from '../../domain/access/principal.js';
import { conflictRefusal } from '../../domain/booking/find-conflicts.js';
import { decideUpdate, type ResourcePatch } from '../../domain/resource/decide-resource.js';
import { noParts } from '../../domain/resource/resource-parts.js';
import { resourceStreamId, type Resource } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { findPartsConflicts, findPartsState, lockOccupations } from '../../projections/resource/resource-parts-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';
import { loadVisibleResource } from './load-visible-resource.js';
import { assertCombinedRoomsStore } from './combined-rooms-store.js';

/** The resource, and what a change of its parts or units is judged by (contract §22). */
async function loadUpdateState(db: Executor, actor: Principal, id: string, patch: ResourcePatch) {
  const resource = await loadVisibleResource(db, actor, id);
  if (patch.parts === undefined && patch.units === undefined) return { resource, partsState: noParts, partsConflicts: [] };
  const parts = patch.parts === undefined ? resource.parts : patch.parts;
  const [partsState, partsConflicts] = await Promise.all([findPartsState(db, id, parts ?? []), patch.parts ? findPartsConflicts(db, id, patch.parts) : []]);
  return { resource, partsState, partsConflicts };
}

/**
 * A PATCH. New parts are decided on the bookings they would make conflict, then checked again in
 * the append's transaction under the occupation locks of everything they join: a booking of a part
 * appended meanwhile on its own stream is seen there (409), and one appended after sees the parts.
 */
export async function updateResource(ctx: CommandContext, actor: Principal, id: string, patch: ResourcePatch): Promise<Resource> {
  const parts = patch.parts;
  if (parts) assertCombinedRoomsStore(ctx);
  await handleCommand(ctx, resourceStreamId(id), {
    load: (db) => loadUpdateState(db, actor, id, patch),
    decide: ({ resource, partsState, partsConflicts }) => [decideUpdate(patch, resource, actor, ctx.now(), partsState, partsConflicts)],
    inTransactionFor: () =>
      parts
        ? async (trx) => {
            await lockOccupations(trx, id, parts);
            const refusal = conflictRefusal(await findPartsConflicts(trx, id, parts));
            if (refusal) throw refusal;
          }
        : undefined,
  });
  return loadVisibleResource(ctx.db, actor, id);
}
