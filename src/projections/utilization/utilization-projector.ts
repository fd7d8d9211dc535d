import { bookingEventTypes, type BookingEvent } from '../../domain/booking/booking-events.js';
import type { Projector } from '../projector.js';

/**
 * One row per booking with its resource, times, status and check-in, replaced by every booking
 * event (each carries the whole booking), so a replay writes the same row. Series parents only
 * describe a pattern and count nowhere: they get no row.
 */
export const utilizationProjector: Projector = {
  name: 'utilization',
  tables: ['utilization_bookings'],
  handles: bookingEventTypes,
  async apply(trx, recorded) {
    const { booking } = recorded.data as BookingEvent['data'];
    if (booking.isSeriesParent) return;
    const row = {
      bookable_resource_id: booking.bookableResourceId,
      start_time: new Date(booking.startTime),
      end_time: new Date(booking.endTime),
      status: booking.status,
      checked_in: booking.checkedInAt !== null,
    };
    await trx
      .insertInto('utilization_bookings')
      .values({ booking_id: booking.id, ...row })
      .onConflict((oc) => oc.column('booking_id').doUpdateSet(row))
      .execute();
  },
};
