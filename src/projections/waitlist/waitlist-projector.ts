import { isWaitlistEvent, waitlistEventTypes } from '../../domain/waitlist/waitlist-events.js';
import { oneAtATime } from '../../infra/event-store/project-events.js';
import { sql } from 'kysely';
import { bind, sqlTemplate, type Holes } from '../../infra/db/sql-template.js';
import type { EventOf } from '../../infra/event-store/event-store.js';
import type { Projector } from '../projector.js';

type EntryChange = { id: string; status: string; entry: string };

const updateEntry = sqlTemplate<EntryChange>((p: Holes<EntryChange>) => [sql`update waitlist_entries set status = ${p.status}, entry = ${p.entry}::jsonb where id = ${p.id}::uuid`]);

/**
 * A fulfilment or a close in SQL alone: the update of the entry's row, which the join's own append
 * wrote in the same store (the join takes `apply`: its row's order is the join's revision, which
 * sqlOf is not given).
 */
function entryChangeOf(event: EventOf) {
  if (!isWaitlistEvent(event) || event.type === 'WaitlistJoined') return undefined;
  const { entry } = event.data;
  return [bind(updateEntry, { id: entry.id, status: entry.status, entry: JSON.stringify(entry) })];
}

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
  sqlOf: entryChangeOf,
  sqlKeyOf: (event) => (event.data as { entry?: { id: string } }).entry?.id,
};
