import { sql, type RawBuilder } from 'kysely';
import type { BookingStatus, HeldBooking } from '../../domain/booking/booking.js';
import { utcTextOfEpochMs } from '../../domain/booking/booking-time.js';

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

/** A held booking as a JSON object of a nested array (heldBookingJsonSql): its times as epoch milliseconds. */
export type HeldBookingJson = Omit<HeldBookingRow, 'start_time' | 'end_time'> & { start_ms: number; end_ms: number };

/** The JSON object of a bookings row `alias` that heldBookingOfJson reads: the held columns only, a fraction of the whole row's JSON. */
export const heldBookingJsonSql = (alias: string): RawBuilder<unknown> => {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const epochMs = (name: string) => sql`floor(extract(epoch from ${column(name)}) * 1000)::bigint`;
  return sql`json_build_object('id', ${column('id')}, 'status', ${column('status')}, 'is_series_parent', ${column('is_series_parent')}, 'units', ${column('units')},
    'buffer_before_minutes', ${column('buffer_before_minutes')}, 'buffer_after_minutes', ${column('buffer_after_minutes')},
    'start_ms', ${epochMs('start_time')}, 'end_ms', ${epochMs('end_time')})`;
};

/** The held booking of a heldBookingJsonSql object, its times written as the bookings' own (utcTextOfEpochMs). */
export const heldBookingOfJson = (row: HeldBookingJson): HeldBooking => ({
  id: row.id,
  status: row.status,
  isSeriesParent: row.is_series_parent,
  startTime: utcTextOfEpochMs(Number(row.start_ms)),
  endTime: utcTextOfEpochMs(Number(row.end_ms)),
  bufferBeforeMinutes: row.buffer_before_minutes,
  bufferAfterMinutes: row.buffer_after_minutes,
  units: row.units,
});
