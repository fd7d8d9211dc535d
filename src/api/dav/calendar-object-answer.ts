import { createHash } from 'node:crypto';
import { calendarObjectKey, calendarObjectText, type CalendarObjectSource } from '../../domain/calendar/calendar-object.js';
import { boundedCache } from '../../infra/cache/bounded-cache.js';
import type { CalendarObjectRow } from '../../projections/calendar/calendar-objects.js';
import type { DavCaller } from './dav-caller.js';

/** A calendar object as served: its text and strong entity tag (a digest of the text: it changes exactly when the text does). */
export type CalendarObject = { bookingId: string; text: string; etag: string };

type Rendered = { text: string; etag: string };

/**
 * Rendered objects by calendarObjectKey (everything their text is a function of): a room's month
 * read again renders only the bookings changed since, not its thousands of objects.
 */
const rendered = boundedCache<string, Rendered>('calendar-objects', { maxBytes: 64 * 2 ** 20, bytesOf: (value, key) => 2 * (value.text.length + key.length) + 160 });

function render(source: CalendarObjectSource): Rendered {
  const text = calendarObjectText(source);
  return { text, etag: `"${createHash('sha256').update(text).digest('base64url')}"` };
}

export function calendarObjectOf(caller: DavCaller, row: CalendarObjectRow, calendarResourceId: string | undefined): CalendarObject {
  const source = { booking: row.booking, location: row.location, viewer: caller.principal, calendarResourceId };
  const { text, etag } = rendered.remember(calendarObjectKey(source), () => render(source));
  return { bookingId: row.booking.id, text, etag };
}
