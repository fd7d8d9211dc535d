import type { Booking } from '../../domain/booking/booking.js';
import type { Executor } from '../../infra/db/database.js';
import { rowToBooking } from './booking-row.js';

/**
 * The live bookings of a bundle in its items' order (contract §22): a bundle's booking ids are
 * drawn in ascending order of its items, so the order of the ids is the items' (none: no such bundle).
 */
export async function findBundleBookings(db: Executor, bundleId: string): Promise<Booking[]> {
  const rows = await db.selectFrom('bookings').selectAll().where('bundle_id', '=', bundleId).orderBy('id').execute();
  return rows.map(rowToBooking);
}
