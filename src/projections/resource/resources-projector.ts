import { evolveResource } from '../../domain/resource/evolve-resource.js';
import { resourceEventTypes, type ResourceEvent } from '../../domain/resource/resource-events.js';
import { oneAtATime } from '../../infra/event-store/project-events.js';
import type { Projector } from '../projector.js';
import { resourceToRow, rowToResource } from './resource-row.js';

export const resourcesProjector: Projector = {
  name: 'resources',
  tables: ['resources'],
  handles: resourceEventTypes,
  apply: oneAtATime(async (trx, recorded) => {
    const event = { type: recorded.type, data: recorded.data } as ResourceEvent;
    const row = await trx.selectFrom('resources').selectAll().where('id', '=', event.data.id).forUpdate().executeTakeFirst();
    if (row && row.stream_revision >= recorded.streamRevision) return;
    const next = evolveResource(row ? rowToResource(row) : null, event);
    if (!next) return;
    // Once a pool, always counted in the append (migration 0031): a pool shrunk to one unit still holds its pooled bookings.
    const values = { ...resourceToRow(next, recorded.streamRevision), counted: (row?.counted ?? false) || next.units > 1 };
    await trx
      .insertInto('resources')
      .values(values)
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute();
  }),
};
