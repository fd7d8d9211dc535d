import { sql } from 'kysely';
import { calendarEventTypes, type CalendarEventEvent, type CalendarEventStored, type CalendarReplyDelivered } from '../../domain/calendar/invitation/calendar-event-events.js';
import { eventSpan } from '../../domain/calendar/invitation/event-span.js';
import { parseInvitation } from '../../domain/calendar/invitation/parse-invitation.js';
import { bind, sqlTemplate, type BoundSql, type Holes } from '../../infra/db/sql-template.js';
import type { CalendarEventsTable, CalendarInboxTable } from '../../infra/db/tables/calendar-events.table.js';
import type { EventOf } from '../../infra/event-store/event-store.js';
import { appendedRevision } from '../../infra/event-store/postgres-event-store.js';
import { oneAtATime } from '../../infra/event-store/project-events.js';
import type { Projector } from '../projector.js';
import { calendarTextEtag } from './calendar-text-etag.js';

type StoredRow = Omit<CalendarEventsTable, 'removed' | 'changed_in' | 'stream_revision'>;
type InboxRow = Omit<CalendarInboxTable, 'removed' | 'changed_in'>;

/** The row a stored event writes, but its stream revision. */
function storedRow({ data }: CalendarEventStored): StoredRow {
  const span = eventSpan(parseInvitation(data.sourceText));
  return {
    workspace: data.workspace,
    owner: data.owner,
    name: data.name,
    uid: data.uid,
    organizer_email: data.organizerEmail,
    source_text: data.sourceText,
    source_hash: data.sourceHash,
    text: data.text,
    etag: calendarTextEtag(data.text),
    schedule_tag: data.scheduleTag,
    rooms: JSON.stringify(data.rooms),
    start_time: new Date(span.start.epochMilliseconds),
    end_time: span.end && new Date(span.end.epochMilliseconds),
    updated_at: new Date(data.at),
  };
}

const inboxRow = ({ data }: CalendarReplyDelivered): InboxRow => ({
  workspace: data.workspace,
  owner: data.owner,
  reply_id: data.replyId,
  event_name: data.name,
  uid: data.uid,
  attendee: data.attendee,
  text: data.text,
  etag: calendarTextEtag(data.text),
  delivered_at: new Date(data.at),
});

const storedColumns = ['workspace', 'owner', 'name', 'uid', 'organizer_email', 'source_text', 'source_hash', 'text', 'etag', 'schedule_tag', 'rooms', 'start_time', 'end_time', 'updated_at'] as const satisfies readonly (keyof StoredRow)[];
const inboxColumns = ['workspace', 'owner', 'reply_id', 'event_name', 'uid', 'attendee', 'text', 'etag', 'delivered_at'] as const satisfies readonly (keyof InboxRow)[];
const list = (names: readonly string[]) => sql.raw(names.join(', '));

/** A stored event's row, unless a later revision of it is in place (a removal's too: a store brings it back). */
const upsertStored = sqlTemplate<StoredRow & { eventId: string }>((p) => {
  const values = p as Holes<StoredRow & { eventId: string }>;
  const revision = appendedRevision(values.eventId);
  return [
    sql`insert into calendar_events (${list(storedColumns)}, removed, stream_revision)
      values (${sql.join(storedColumns.map((c) => values[c]))}, false, ${revision})
      on conflict (workspace, owner, name) do update set ${sql.raw(storedColumns.map((c) => `${c} = excluded.${c}`).join(', '))}, removed = false, stream_revision = excluded.stream_revision
      where calendar_events.stream_revision < excluded.stream_revision`,
  ];
});

type RemovedArgs = { workspace: string; owner: string; name: string; at: Date; eventId: string };
const markRemoved = sqlTemplate<RemovedArgs>((p) => [
  sql`update calendar_events set removed = true, stream_revision = ${appendedRevision(p.eventId)}, updated_at = ${p.at}
    where workspace = ${p.workspace} and owner = ${p.owner} and name = ${p.name} and stream_revision < ${appendedRevision(p.eventId)}`,
]);

const insertReply = sqlTemplate<InboxRow>((p) => [
  sql`insert into calendar_inbox (${list(inboxColumns)}) values (${sql.join(inboxColumns.map((c) => p[c]))}) on conflict (workspace, owner, reply_id) do nothing`,
]);

type ReplyKey = { workspace: string; owner: string; replyId: string };
const removeReply = sqlTemplate<ReplyKey>((p) => [
  sql`update calendar_inbox set removed = true where workspace = ${p.workspace} and owner = ${p.owner} and reply_id = ${p.replyId} and removed = false`,
]);

/** The event in SQL alone, in the append's statement: what `apply` writes, the revision read there by the event's id. */
function statementsOf(recorded: EventOf & { id: string }): BoundSql[] | undefined {
  const event = recorded as unknown as CalendarEventEvent;
  const { workspace, owner, name } = event.data;
  switch (event.type) {
    case 'CalendarEventStored':
      return [bind(upsertStored, { ...storedRow(event), eventId: recorded.id })];
    case 'CalendarEventRemoved':
      return [bind(markRemoved, { workspace, owner, name, at: new Date(event.data.at), eventId: recorded.id })];
    case 'CalendarReplyDelivered':
      return [bind(insertReply, inboxRow(event))];
    case 'CalendarReplyRemoved':
      return [bind(removeReply, { workspace, owner, replyId: event.data.replyId })];
    default:
      return undefined;
  }
}

/** Distinct rows: an event's own (by its name), a REPLY's own (by its id). */
function rowKeyOf(recorded: EventOf): string | undefined {
  const event = recorded as unknown as CalendarEventEvent;
  const { workspace, owner } = event.data;
  if (event.type === 'CalendarEventStored' || event.type === 'CalendarEventRemoved') return `event ${workspace} ${owner} ${event.data.name}`;
  if (event.type === 'CalendarReplyDelivered' || event.type === 'CalendarReplyRemoved') return `reply ${workspace} ${owner} ${event.data.replyId}`;
  return undefined;
}

/**
 * The organizers' stored events (contract §26) and their inboxes: an event's row as last stored
 * (a removal keeps it, marked, for the next sync to report), each REPLY once delivered until the
 * organizer deletes it. Rows of a stream revision already applied are left alone. Inline, an
 * invitation's events go in its append's one statement (sqlOf).
 */
export const calendarEventsProjector: Projector = {
  name: 'calendar-events',
  tables: ['calendar_events', 'calendar_inbox'],
  handles: calendarEventTypes,
  apply: oneAtATime(async (trx, recorded) => {
    const event = { type: recorded.type, data: recorded.data } as CalendarEventEvent;
    const { workspace, owner, name } = event.data;
    const revision = recorded.streamRevision;
    switch (event.type) {
      case 'CalendarEventStored': {
        const values = { ...storedRow(event), removed: false, stream_revision: revision };
        await trx
          .insertInto('calendar_events')
          .values(values)
          .onConflict((oc) => oc.columns(['workspace', 'owner', 'name']).doUpdateSet(values).where('calendar_events.stream_revision', '<', revision))
          .execute();
        return;
      }
      case 'CalendarEventRemoved':
        await trx
          .updateTable('calendar_events')
          .set({ removed: true, stream_revision: revision, updated_at: new Date(event.data.at) })
          .where('workspace', '=', workspace)
          .where('owner', '=', owner)
          .where('name', '=', name)
          .where('stream_revision', '<', revision)
          .execute();
        return;
      case 'CalendarReplyDelivered':
        await trx
          .insertInto('calendar_inbox')
          .values(inboxRow(event))
          .onConflict((oc) => oc.columns(['workspace', 'owner', 'reply_id']).doNothing())
          .execute();
        return;
      case 'CalendarReplyRemoved':
        await trx.updateTable('calendar_inbox').set({ removed: true }).where('workspace', '=', workspace).where('owner', '=', owner).where('reply_id', '=', event.data.replyId).where('removed', '=', false).execute();
        return;
    }
  }),
  sqlOf: statementsOf,
  sqlKeyOf: rowKeyOf,
};
