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
    const values = resourceToRow(next, recorded.streamRevision);
    await trx
      .insertInto('resources')
      .values(values)
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute();
  }),
};
