import type { BookingArchived } from '../../domain/booking/booking-archived.js';
import { storedBookingEventTypes } from '../../domain/booking/booking-archived.js';
import type { BookingEvent } from '../../domain/booking/booking-events.js';
import type { Projector } from '../projector.js';
import { bookingToRow } from './booking-row.js';

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
    const { booking } = recorded.data as BookingEvent['data'];
    const { id: _id, ...changes } = bookingToRow(booking);
    await trx
      .insertInto('bookings')
      .values(bookingToRow(booking))
      .onConflict((oc) => oc.column('id').doUpdateSet(changes))
      .execute();
  },
};
