import { createHash } from 'node:crypto';
import type { CalendarEventKey } from '../../domain/calendar/invitation/calendar-event-events.js';

/** The stream of one object name in one organizer's calendar (contract §26): the same name is the same stream, across deletes. */
export function calendarEventStreamId({ workspace, owner, name }: CalendarEventKey): string {
  const digest = createHash('sha256').update(`${workspace}\n${owner}\n${name}`).digest('hex').slice(0, 32);
  return `calendar-event-${digest}`;
}
