import type { Principal } from '../../domain/access/principal.js';
import { utcText } from '../../domain/booking/booking-time.js';
import { type CalendarReplyRemoved } from '../../domain/calendar/invitation/calendar-event-events.js';
import { notFound } from '../../domain/domain-error.js';
import { findInboxReply } from '../../projections/calendar/calendar-event-queries.js';
import type { CommandContext } from '../command-context.js';
import { calendarEventStreamId } from './calendar-event-stream.js';
import { handleCommand } from '../handle-command.js';

/**
 * DELETE of a REPLY in the organizer's inbox (contract §26): CalendarReplyRemoved on the stream of
 * the event it answers. Only the inbox's owner reaches it (the router checks the path's owner);
 * an unknown or removed reply → 404.
 */
export async function deleteInboxReply(ctx: CommandContext, actor: Principal, workspace: string, replyId: string): Promise<void> {
  const owner = { workspace, owner: actor.sub };
  const found = await findInboxReply(ctx.db, owner, replyId);
  if (!found) throw notFound('calendar object');
  const key = { ...owner, name: found.name };
  await handleCommand<boolean, CalendarReplyRemoved>(ctx, calendarEventStreamId(key), {
    load: async (db) => (await findInboxReply(db, owner, replyId)) !== null,
    decide: (present) => {
      if (!present) throw notFound('calendar object');
      return [{ type: 'CalendarReplyRemoved', data: { ...key, replyId, at: utcText(ctx.now()) } }];
    },
  });
}
