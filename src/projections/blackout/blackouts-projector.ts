import { blackoutEventTypes, isBlackoutEvent } from '../../domain/blackout/blackout-events.js';
import { oneAtATime } from '../../infra/event-store/project-events.js';
import type { Projector } from '../projector.js';

/**
 * The blackouts table. In the append's transaction even when the others follow the log: the guard
 * of every booking append (migration 0019) reads it, so it must never lag behind the log.
 */
export const blackoutsProjector: Projector = {
  name: 'blackouts',
  tables: ['blackouts'],
  handles: blackoutEventTypes,
  inAppend: true,
  apply: oneAtATime(async (trx, event) => {
    if (!isBlackoutEvent(event)) return;
    const { blackout } = event.data;
    if (event.type === 'BlackoutDeleted') {
      await trx.deleteFrom('blackouts').where('id', '=', blackout.id).execute();
      return;
    }
    const row = {
      id: blackout.id,
      workspace: blackout.workspace,
      resource_ids: blackout.resourceIds,
      from_time: new Date(blackout.from),
      to_time: new Date(blackout.to),
      reason: blackout.reason,
      created_by: blackout.createdBy,
      created_at: new Date(blackout.createdAt),
    };
    // Applied again by a follower after a commit it could not confirm: the row is the same.
    await trx.insertInto('blackouts').values(row).onConflict((oc) => oc.column('id').doUpdateSet(row)).execute();
  }),
};
