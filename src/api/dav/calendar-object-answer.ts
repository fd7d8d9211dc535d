import { calendarObjectKey, calendarObjectText, type CalendarObjectSource } from '../../domain/calendar/calendar-object.js';
import { boundedCache } from '../../infra/cache/bounded-cache.js';
import type { CalendarObjectRow } from '../../projections/calendar/calendar-objects.js';
import { calendarTextEtag } from '../../projections/calendar/calendar-text-etag.js';
import type { DavCaller } from './dav-caller.js';

/** A calendar object as served: its name in its calendar, its text and strong entity tag (calendarTextEtag: it changes exactly when the text does). */
export type CalendarObject = { name: string; text: string; etag: string };

type Rendered = { text: string; etag: string };

/**
 * Rendered objects by calendarObjectKey (everything their text is a function of): a room's month
 * read again renders only the bookings changed since, not its thousands of objects.
 */
const rendered = boundedCache<string, Rendered>('calendar-objects', { maxBytes: 64 * 2 ** 20, bytesOf: (value, key) => 2 * (value.text.length + key.length) + 160 });

function render(source: CalendarObjectSource): Rendered {
  const text = calendarObjectText(source);
  return { text, etag: calendarTextEtag(text) };
}

export function calendarObjectOf(caller: DavCaller, row: CalendarObjectRow, calendarResourceId: string | undefined): CalendarObject {
  const source = { booking: row.booking, location: row.location, viewer: caller.principal, calendarResourceId };
  const { text, etag } = rendered.remember(calendarObjectKey(source), () => render(source));
  return { name: `${row.booking.id}.ics`, text, etag };
}
