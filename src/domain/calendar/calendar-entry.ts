import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import { canSeeBooking } from '../booking/booking-access.js';
import type { Booking, BookingStatus } from '../booking/booking.js';
import { sequenceOf } from '../booking/booking-sequence.js';

/** RFC 5545 STATUS of a VEVENT. */
export type CalendarStatus = 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED';

/** One VEVENT of a feed, as the contract (§18) writes it; instants in UTC. */
export type CalendarEntry = {
  uid: string;
  start: Temporal.Instant;
  end: Temporal.Instant;
  /** DTSTAMP: without a METHOD, RFC 5545 makes it the last change (so equal rows render equal bytes). */
  stamp: Temporal.Instant;
  lastModified: Temporal.Instant;
  summary: string;
  status: CalendarStatus;
  sequence: number;
  location: string;
  /** The units of the resource it takes (contract §21), written as X-WORKSPACE-BOOKING-UNITS. */
  units: number;
};

/** What §2's privacy shows of another user's booking to LV4/LV5. */
export const hiddenSummary = 'Busy';

export const uidSuffix = '@workspace-booking';

/**
 * A booking that happened (completed, no_show) was held as confirmed: the calendar keeps it as
 * CONFIRMED rather than dropping it from the past days of the window.
 */
const statusOf: Record<BookingStatus, CalendarStatus> = {
  pending: 'TENTATIVE',
  confirmed: 'CONFIRMED',
  completed: 'CONFIRMED',
  no_show: 'CONFIRMED',
  cancelled: 'CANCELLED',
};

/** The VEVENT of `booking` as `viewer` may see it: the title only where canSeeBooking allows. */
export function calendarEntryOf(booking: Booking, location: string, viewer: Principal): CalendarEntry {
  const updated = Temporal.Instant.from(booking.updatedAt);
  return {
    uid: `${booking.id}${uidSuffix}`,
    start: Temporal.Instant.from(booking.startTime),
    end: Temporal.Instant.from(booking.endTime),
    stamp: updated,
    lastModified: updated,
    summary: canSeeBooking(viewer, booking) ? booking.title : hiddenSummary,
    status: statusOf[booking.status],
    sequence: sequenceOf(booking),
    location,
    units: booking.units,
  };
}
