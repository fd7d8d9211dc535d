import type { Selectable } from 'kysely';
import type { BookingStatus } from '../../../domain/booking/booking.js';

/** One booking as utilization counts it; series parents have no row. */
export type UtilizationBookingsTable = {
  booking_id: string;
  bookable_resource_id: string;
  start_time: Date;
  end_time: Date;
  /** start_time and end_time in epoch microseconds, as the figures read them. */
  start_us: number;
  end_us: number;
  status: BookingStatus;
  /** Checked in at some point (a checked-out booking is completed and stays checked in). */
  checked_in: boolean;
  /** The units of its resource it takes (contract §21): its minutes count as unit-minutes. */
  units: number;
};

export type UtilizationBookingRow = Selectable<UtilizationBookingsTable>;
