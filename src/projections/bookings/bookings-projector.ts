import { bookingEventTypes, type BookingEvent } from '../../domain/booking/booking-events.js';
import type { Projector } from '../projector.js';
import { bookingToRow } from './booking-row.js';

/**
 * Every booking event carries the whole booking after the change, so the row is simply replaced:
 * applying an event again (a replay, a rebuild in log order) writes the same row.
 */
export const bookingsProjector: Projector = {
  name: 'bookings',
  tables: ['bookings'],
  handles: bookingEventTypes,
  async apply(trx, recorded) {
    const { booking } = recorded.data as BookingEvent['data'];
    const { id: _id, ...changes } = bookingToRow(booking);
    await trx
      .insertInto('bookings')
      .values(bookingToRow(booking))
      .onConflict((oc) => oc.column('id').doUpdateSet(changes))
      .execute();
  },
};
