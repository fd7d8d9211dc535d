import { sql, type Insertable } from 'kysely';
import type { BookingArchived } from '../../domain/booking/booking-archived.js';
import { storedBookingEventTypes } from '../../domain/booking/booking-archived.js';
import { bookingIdOfEvent, type BookingEvent } from '../../domain/booking/booking-events.js';
import { bind, executeAll, sqlTemplate, upsertStatement, type BoundSql } from '../../infra/db/sql-template.js';
import { insertJsonRows } from '../../infra/db/json-rows.js';
import type { BookingsArchiveTable, BookingsTable } from '../../infra/db/tables/bookings.table.js';
import type { EventOf } from '../../infra/event-store/event-store.js';
import type { Projector } from '../projector.js';
import { decidedBooking } from '../../domain/booking/upcast-booking.js';
import { bookingToRow } from './booking-row.js';

/** Every column of `bookings`, named once: a row is always written whole. */
const columns = Object.keys({
  id: true,
  bookable_resource_id: true,
  workspace: true,
  resource_type: true,
  resource_id: true,
  booker_profile_id: true,
  booker_email: true,
  created_by: true,
  title: true,
  start_time: true,
  end_time: true,
  buffer_before_minutes: true,
  buffer_after_minutes: true,
  units: true,
  pooled: true,
  status: true,
  is_series_parent: true,
  recurrence_rule: true,
  recurrence_time_zone: true,
  recurrence_parent_id: true,
  exception_of: true,
  bundle_id: true,
  calendar_uid: true,
  confirmed_by: true,
  confirmed_at: true,
  cancelled_by: true,
  cancelled_at: true,
  on_behalf_of: true,
  reason: true,
  checked_in_at: true,
  checked_out_at: true,
  created_at: true,
  updated_at: true,
  sequence: true,
} satisfies Record<keyof BookingsTable, true>);

const archiveColumns = [...columns, 'archived_at'];

const upsertBooking = sqlTemplate<Insertable<BookingsTable>>((row) => [upsertStatement('bookings', columns, 'id', row)]);

const upsertOf = (event: EventOf): BoundSql[] => [bind(upsertBooking, bookingToRow(decidedBooking(event.data as BookingEvent['data'])))];

function archivedRow(booking: BookingArchived['data']['booking']): Insertable<BookingsArchiveTable> {
  return { ...bookingToRow(booking), is_series_parent: booking.isSeriesParent, archived_at: new Date(booking.archivedAt) };
}

/**
 * Every booking event carries the whole booking after the change, so a booking's row is the one
 * its last event gives: a run of events leaves the rows of its bookings out, then puts in each
 * one's last (a booking whose last event archived it leaves `bookings` for `bookings_archive`,
 * contract §13, retention). Applying events again (a replay, a rebuild in log order) writes the
 * same rows. Out, then in: the rows in place once the run is applied are those of a moment of the
 * log, which the exclusion constraint allowed, so no row on its way in meets one on its way out.
 */
export const bookingsProjector: Projector = {
  name: 'bookings',
  tables: ['bookings', 'bookings_archive'],
  handles: storedBookingEventTypes,
  setBased: true,
  async apply(trx, events) {
    const last = new Map<string, EventOf>();
    const archived = new Map<string, Insertable<BookingsArchiveTable>>();
    for (const event of events) {
      const { booking } = event.data as BookingEvent['data'] | BookingArchived['data'];
      last.set(booking.id, event);
      if (event.type === 'BookingArchived') archived.set(booking.id, archivedRow((event.data as BookingArchived['data']).booking));
    }
    const rows = [...last.values()].filter((event) => event.type !== 'BookingArchived').map((event) => bookingToRow(decidedBooking(event.data as BookingEvent['data'])));
    await sql`delete from bookings where id = any(${[...last.keys()]}::uuid[])`.execute(trx);
    if (rows.length > 0) await insertJsonRows('bookings', columns, JSON.stringify(rows)).execute(trx);
    if (archived.size > 0) await insertJsonRows('bookings_archive', archiveColumns, JSON.stringify([...archived.values()]), 'id').execute(trx);
  },
  sqlOf: (event) => (event.type === 'BookingArchived' ? undefined : upsertOf(event)),
  sqlKeyOf: bookingIdOfEvent,
};
