import type { Insertable } from 'kysely';
import type { BookingArchived } from '../../domain/booking/booking-archived.js';
import { storedBookingEventTypes } from '../../domain/booking/booking-archived.js';
import type { BookingEvent } from '../../domain/booking/booking-events.js';
import { bind, executeAll, sqlTemplate, upsertStatement, type BoundSql } from '../../infra/db/sql-template.js';
import type { BookingsTable } from '../../infra/db/tables/bookings.table.js';
import type { EventOf } from '../../infra/event-store/event-store.js';
import type { Projector } from '../projector.js';
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
  status: true,
  is_series_parent: true,
  recurrence_rule: true,
  recurrence_time_zone: true,
  recurrence_parent_id: true,
  exception_of: true,
  confirmed_by: true,
  confirmed_at: true,
  cancelled_by: true,
  cancelled_at: true,
  reason: true,
  checked_in_at: true,
  checked_out_at: true,
  created_at: true,
  updated_at: true,
} satisfies Record<keyof BookingsTable, true>);

const upsertBooking = sqlTemplate<Insertable<BookingsTable>>((row) => [upsertStatement('bookings', columns, 'id', row)]);

const upsertOf = (event: EventOf): BoundSql[] => [bind(upsertBooking, bookingToRow((event.data as BookingEvent['data']).booking))];

/**
 * Every booking event carries the whole booking after the change, so the row is simply replaced:
 * applying an event again (a replay, a rebuild in log order) writes the same row. An archived
 * booking leaves `bookings` for `bookings_archive` (contract §13, retention).
 */
export const bookingsProjector: Projector = {
  name: 'bookings',
  tables: ['bookings', 'bookings_archive'],
  handles: storedBookingEventTypes,
  async apply(trx, recorded) {
    if (recorded.type === 'BookingArchived') {
      const { booking } = recorded.data as BookingArchived['data'];
      const row = { ...bookingToRow(booking), archived_at: new Date(booking.archivedAt) };
      const { id: _id, ...changes } = row;
      await trx.deleteFrom('bookings').where('id', '=', booking.id).execute();
      await trx
        .insertInto('bookings_archive')
        .values({ ...row, is_series_parent: booking.isSeriesParent })
        .onConflict((oc) => oc.column('id').doUpdateSet({ ...changes, is_series_parent: booking.isSeriesParent }))
        .execute();
      return;
    }
    await executeAll(trx, upsertOf(recorded));
  },
  sqlOf: (event) => (event.type === 'BookingArchived' ? undefined : upsertOf(event)),
};
