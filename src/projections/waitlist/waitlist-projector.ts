import { isWaitlistEvent, waitlistEventTypes } from '../../domain/waitlist/waitlist-events.js';
import { oneAtATime } from '../../infra/event-store/project-events.js';
import type { Projector } from '../projector.js';

/** The waitlist entries: every event carries the whole entry, so each one writes its row (the same row when applied again), ordered by the join's revision. */
export const waitlistProjector: Projector = {
  name: 'waitlist-entries',
  tables: ['waitlist_entries'],
  handles: waitlistEventTypes,
  apply: oneAtATime(async (trx, event) => {
    if (!isWaitlistEvent(event)) return;
    const { entry } = event.data;
    const row = {
      id: entry.id,
      workspace: entry.workspace,
      bookable_resource_id: entry.bookableResourceId,
      queued_at: event.streamRevision,
      booker_profile_id: entry.bookerProfileId,
      created_by: entry.createdBy,
      status: entry.status,
      start_time: new Date(entry.startTime),
      end_time: new Date(entry.endTime),
      entry: JSON.stringify(entry),
      created_at: new Date(entry.createdAt),
    };
    await trx
      .insertInto('waitlist_entries')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet({ status: row.status, entry: row.entry }))
      .execute();
  }),
};
