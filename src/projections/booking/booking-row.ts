import type { Insertable } from 'kysely';
import type { Booking } from '../../domain/booking/booking.js';
import { sequenceOf } from '../../domain/booking/booking-sequence.js';
import { upcastBooking, type StoredBooking } from '../../domain/booking/upcast-booking.js';
import { utcTextOfEpochMs } from '../../domain/booking/booking-time.js';
import type { ArchivedBookingRow, BookingRow, BookingsTable } from '../../infra/db/tables/bookings.table.js';

const text = (date: Date) => utcTextOfEpochMs(date.getTime());
const textOrNull = (date: Date | null) => (date ? text(date) : null);
const dateOrNull = (value: string | null) => (value ? new Date(value) : null);

export function rowToBooking(row: BookingRow): Booking {
  return {
    id: row.id,
    bookableResourceId: row.bookable_resource_id,
    workspace: row.workspace,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    bookerProfileId: row.booker_profile_id,
    bookerEmail: row.booker_email,
    createdBy: row.created_by,
    title: row.title,
    startTime: text(row.start_time),
    endTime: text(row.end_time),
    bufferBeforeMinutes: row.buffer_before_minutes,
    bufferAfterMinutes: row.buffer_after_minutes,
    units: row.units,
    pooled: row.pooled,
    status: row.status,
    isSeriesParent: row.is_series_parent,
    recurrenceRule: row.recurrence_rule,
    recurrenceTimeZone: row.recurrence_time_zone,
    recurrenceParentId: row.recurrence_parent_id,
    exceptionOf: row.exception_of,
    bundleId: row.bundle_id,
    calendarUid: row.calendar_uid,
    confirmedBy: row.confirmed_by,
    confirmedAt: textOrNull(row.confirmed_at),
    cancelledBy: row.cancelled_by,
    cancelledAt: textOrNull(row.cancelled_at),
    onBehalfOf: row.on_behalf_of,
    reason: row.reason,
    checkedInAt: textOrNull(row.checked_in_at),
    checkedOutAt: textOrNull(row.checked_out_at),
    createdAt: text(row.created_at),
    updatedAt: text(row.updated_at),
    sequence: row.sequence,
  };
}

export function archivedRowToBooking(row: ArchivedBookingRow): Booking {
  return { ...rowToBooking(row), archivedAt: text(row.archived_at) };
}

export function bookingToRow(stored: StoredBooking): Insertable<BookingsTable> {
  const booking = upcastBooking(stored);
  return {
    id: booking.id,
    bookable_resource_id: booking.bookableResourceId,
    workspace: booking.workspace,
    resource_type: booking.resourceType,
    resource_id: booking.resourceId,
    booker_profile_id: booking.bookerProfileId,
    booker_email: booking.bookerEmail,
    created_by: booking.createdBy,
    title: booking.title,
    start_time: new Date(booking.startTime),
    end_time: new Date(booking.endTime),
    buffer_before_minutes: booking.bufferBeforeMinutes,
    buffer_after_minutes: booking.bufferAfterMinutes,
    units: booking.units,
    pooled: booking.pooled,
    status: booking.status,
    is_series_parent: booking.isSeriesParent,
    recurrence_rule: booking.recurrenceRule,
    recurrence_time_zone: booking.recurrenceTimeZone,
    recurrence_parent_id: booking.recurrenceParentId,
    exception_of: booking.exceptionOf,
    // Events written before bundles carry none: the booking is in none.
    bundle_id: booking.bundleId,
    calendar_uid: booking.calendarUid,
    confirmed_by: booking.confirmedBy,
    confirmed_at: dateOrNull(booking.confirmedAt),
    cancelled_by: booking.cancelledBy,
    cancelled_at: dateOrNull(booking.cancelledAt),
    on_behalf_of: booking.onBehalfOf,
    reason: booking.reason,
    checked_in_at: dateOrNull(booking.checkedInAt),
    checked_out_at: dateOrNull(booking.checkedOutAt),
    created_at: new Date(booking.createdAt),
    updated_at: new Date(booking.updatedAt),
    sequence: sequenceOf(booking),
  };
}
