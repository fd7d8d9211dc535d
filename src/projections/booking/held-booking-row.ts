import type { BookingStatus, HeldBooking } from '../../domain/booking/booking.js';

/** A booking row as the occupation reads select it (times as UTC text), keyed by the resource it occupies. */
export type HeldBookingRow = {
  id: string;
  status: BookingStatus;
  is_series_parent: boolean;
  start_time: string;
  end_time: string;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  units: number;
};

/** The rows grouped by the resource each occupies, as the held bookings the decisions count. */
export function heldBookingsByResource<Row extends HeldBookingRow>(rows: readonly Row[], resourceOf: (row: Row) => string): Map<string, HeldBooking[]> {
  const byResource = new Map<string, HeldBooking[]>();
  for (const row of rows) {
    const booking: HeldBooking = {
      id: row.id,
      status: row.status,
      isSeriesParent: row.is_series_parent,
      startTime: row.start_time,
      endTime: row.end_time,
      bufferBeforeMinutes: row.buffer_before_minutes,
      bufferAfterMinutes: row.buffer_after_minutes,
      units: row.units,
    };
    const resource = resourceOf(row);
    const held = byResource.get(resource);
    if (held) held.push(booking);
    else byResource.set(resource, [booking]);
  }
  return byResource;
}
