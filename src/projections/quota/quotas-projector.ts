import { quotaEventTypes, type QuotaEvent } from '../../domain/quota/quota-events.js';
import { oneAtATime } from '../../infra/event-store/project-events.js';
import type { Projector } from '../projector.js';

/** The live quotas: a creation adds the row (once, however often it is applied), a deletion drops it. */
export const quotasProjector: Projector = {
  name: 'quotas',
  tables: ['quotas'],
  handles: quotaEventTypes,
  apply: oneAtATime(async (trx, recorded) => {
    const event = { type: recorded.type, data: recorded.data } as QuotaEvent;
    const { quota } = event.data;
    if (event.type === 'QuotaDeleted') {
      await trx.deleteFrom('quotas').where('id', '=', quota.id).execute();
      return;
    }
    await trx
      .insertInto('quotas')
      .values({ id: quota.id, workspace: quota.workspace, quota: JSON.stringify(quota), created_at: new Date(quota.createdAt) })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }),
};
