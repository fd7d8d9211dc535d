import { createHash } from 'node:crypto';
import { calendarObjectText } from '../../domain/calendar/calendar-object.js';
import type { CalendarObjectRow } from '../../projections/calendar/calendar-objects.js';
import type { DavCaller } from './dav-caller.js';

/** A calendar object as served: its name in its calendar, its text and strong entity tag (a digest of the text: it changes exactly when the text does). */
export type CalendarObject = { name: string; text: string; etag: string };

export function calendarObjectOf(caller: DavCaller, row: CalendarObjectRow, calendarResourceId: string | undefined): CalendarObject {
  const text = calendarObjectText({ booking: row.booking, location: row.location, viewer: caller.principal, calendarResourceId });
  return { name: `${row.booking.id}.ics`, text, etag: `"${createHash('sha256').update(text).digest('base64url')}"` };
}
