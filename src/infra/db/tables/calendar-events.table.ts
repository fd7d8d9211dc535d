import type { Generated, Selectable } from 'kysely';

/** An organizer's event in its `bookings/` calendar (contract §26), as last stored; `removed` once deleted (kept for sync). */
export type CalendarEventsTable = {
  workspace: string;
  /** The organizer's `sub`. */
  owner: string;
  /** The object's name in the calendar, `{name}.ics`. */
  name: string;
  uid: string;
  organizer_email: string;
  source_text: string;
  source_hash: string;
  /** The stored object: the source with each room's answer. */
  text: string;
  /** The strong entity tag of `text`, quoted. */
  etag: string;
  schedule_tag: string;
  rooms: unknown;
  /** The span the event covers (a series': its first start to its last end), null where unbounded. */
  start_time: Date | null;
  end_time: Date | null;
  removed: Generated<boolean>;
  stream_revision: number;
  updated_at: Date;
  changed_in: Generated<string>;
};

/** A room's REPLY in the organizer's inbox (contract §26). */
export type CalendarInboxTable = {
  workspace: string;
  owner: string;
  reply_id: string;
  /** The name of the organizer's event it answers. */
  event_name: string;
  uid: string;
  attendee: string;
  text: string;
  etag: string;
  delivered_at: Date;
  removed: Generated<boolean>;
  changed_in: Generated<string>;
};

export type CalendarEventRow = Selectable<CalendarEventsTable>;
export type CalendarInboxRow = Selectable<CalendarInboxTable>;
