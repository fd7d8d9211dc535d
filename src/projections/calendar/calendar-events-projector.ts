import { calendarEventTypes, type CalendarEventEvent } from '../../domain/calendar/invitation/calendar-event-events.js';
import { eventSpan } from '../../domain/calendar/invitation/event-span.js';
import { parseInvitation } from '../../domain/calendar/invitation/parse-invitation.js';
import { oneAtATime } from '../../infra/event-store/project-events.js';
import type { Projector } from '../projector.js';
import { calendarTextEtag } from './calendar-text-etag.js';

/**
 * The organizers' stored events (contract §26) and their inboxes: an event's row as last stored
 * (a removal keeps it, marked, for the next sync to report), each REPLY once delivered until the
 * organizer deletes it. Rows of a stream revision already applied are left alone.
 */
export const calendarEventsProjector: Projector = {
  name: 'calendar-events',
  tables: ['calendar_events', 'calendar_inbox'],
  handles: calendarEventTypes,
  apply: oneAtATime(async (trx, recorded) => {
    const event = { type: recorded.type, data: recorded.data } as CalendarEventEvent;
    const { workspace, owner, name } = event.data;
    const at = new Date(event.data.at);
    switch (event.type) {
      case 'CalendarEventStored': {
        const { data } = event;
        const span = eventSpan(parseInvitation(data.sourceText));
        const values = {
          workspace,
          owner,
          name,
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
          removed: false,
          stream_revision: recorded.streamRevision,
          updated_at: at,
        };
        await trx
          .insertInto('calendar_events')
          .values(values)
          .onConflict((oc) => oc.columns(['workspace', 'owner', 'name']).doUpdateSet(values).where('calendar_events.stream_revision', '<', recorded.streamRevision))
          .execute();
        return;
      }
      case 'CalendarEventRemoved':
        await trx
          .updateTable('calendar_events')
          .set({ removed: true, stream_revision: recorded.streamRevision, updated_at: at })
          .where('workspace', '=', workspace)
          .where('owner', '=', owner)
          .where('name', '=', name)
          .where('stream_revision', '<', recorded.streamRevision)
          .execute();
        return;
      case 'CalendarReplyDelivered': {
        const { data } = event;
        await trx
          .insertInto('calendar_inbox')
          .values({ workspace, owner, reply_id: data.replyId, event_name: name, uid: data.uid, attendee: data.attendee, text: data.text, etag: calendarTextEtag(data.text), delivered_at: at })
          .onConflict((oc) => oc.columns(['workspace', 'owner', 'reply_id']).doNothing())
          .execute();
        return;
      }
      case 'CalendarReplyRemoved':
        await trx.updateTable('calendar_inbox').set({ removed: true }).where('workspace', '=', workspace).where('owner', '=', owner).where('reply_id', '=', event.data.replyId).where('removed', '=', false).execute();
        return;
    }
  }),
};
