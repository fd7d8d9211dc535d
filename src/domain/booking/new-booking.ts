import type { Temporal } from 'temporal-polyfill';
import type { Resource } from '../resource/resource.js';
import type { Booking } from './booking.js';
import { utcText } from './booking-time.js';

export type NewBooking = {
  id: string;
  resource: Resource;
  bookerProfileId: string;
  bookerEmail: string | null;
  /** The acting `sub`. */
  createdBy: string;
  title: string;
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  now: Temporal.Instant;
  /** The bundle it is created in (contract §22); none by default. */
  bundleId?: string | null;
  /** Units of the resource it takes (contract §21); one by default. */
  units?: number;
  /** The organizer's calendar event that makes it (contract §26); none by default. */
  calendarUid?: string | null;
};

/** A booking as it is created on `resource`: a single booking, to be linked into a series by the caller. */
export function newBooking({ id, resource, bookerProfileId, bookerEmail, createdBy, title, startTime, endTime, now, bundleId = null, units = 1, calendarUid = null }: NewBooking): Booking {
  const at = utcText(now);
  return {
    id,
    bookableResourceId: resource.id,
    workspace: resource.workspace,
    resourceType: resource.resourceType,
    resourceId: resource.resourceId,
    bookerProfileId,
    bookerEmail,
    createdBy,
    title,
    startTime: utcText(startTime),
    endTime: utcText(endTime),
    // The policy in force now governs the booking's buffers for good (contract §17).
    bufferBeforeMinutes: resource.bookingPolicy.bufferBeforeMinutes,
    bufferAfterMinutes: resource.bookingPolicy.bufferAfterMinutes,
    units,
    pooled: resource.units > 1,
    // autoConfirm skips pending; confirmedBy/At stay for an explicit confirmation (booking.confirm).
    status: resource.bookingPolicy.autoConfirm ? 'confirmed' : 'pending',
    isSeriesParent: false,
    recurrenceRule: null,
    recurrenceTimeZone: null,
    recurrenceParentId: null,
    exceptionOf: null,
    bundleId,
    calendarUid,
    confirmedBy: null,
    confirmedAt: null,
    cancelledBy: null,
    cancelledAt: null,
    onBehalfOf: null,
    reason: null,
    checkedInAt: null,
    checkedOutAt: null,
    createdAt: at,
    updatedAt: at,
    sequence: 0,
  };
}
