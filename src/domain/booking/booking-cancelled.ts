import type { Temporal } from 'temporal-polyfill';
import type { Booking } from './booking.js';
import { changedBooking } from './booking-sequence.js';
import type { BookingCancelled } from './booking-events.js';
import { utcText } from './booking-time.js';

/**
 * The cancellation of an active booking, by a user or by the system; `onBehalfOf` names the approver
 * a delegate declined it for (contract §24), on the record and beside it in the event.
 */
export function cancelled(booking: Booking, by: string, now: Temporal.Instant, reason: string | null, onBehalfOf: string | null = null): BookingCancelled {
  const at = utcText(now);
  return {
    type: 'BookingCancelled',
    data: {
      booking: changedBooking(booking, at, { status: 'cancelled', cancelledBy: by, cancelledAt: at, reason, onBehalfOf }),
      by,
      at,
      ...(onBehalfOf !== null && { onBehalfOf }),
    },
  };
}
