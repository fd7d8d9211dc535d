import type { Principal } from '../../access/principal.js';
import { notFound } from '../../domain-error.js';
import type { Booking } from '../booking.js';
import { canSeeBooking } from '../booking-access.js';

/** The series parent the actor may see, or 404: an occurrence or a single booking is no series. */
export function visibleSeriesParent(actor: Principal, booking: Booking | null): Booking {
  if (!booking || !booking.isSeriesParent || !canSeeBooking(actor, booking)) throw notFound('series');
  return booking;
}
