import type { Booking } from './booking.js';

/**
 * A booking as an event of any age carries it: events written before a field existed lack it.
 * Stored events are never rewritten (their hash chain covers them), so every reader asks this.
 */
type AddedFields = 'createdBy' | 'bufferBeforeMinutes' | 'bufferAfterMinutes' | 'bundleId' | 'units' | 'pooled' | 'onBehalfOf' | 'calendarUid';
export type StoredBooking = Omit<Booking, AddedFields> & Partial<Pick<Booking, AddedFields>>;

/**
 * The one upcaster of a stored booking: the defaults of the fields added since the first events.
 * Before booking on behalf (contract §17) the booker created it; before buffers it had none;
 * before bundles (contract §22) it belonged to none; before pools (contract §21) it took one unit
 * of a resource that had one; before the record named the approver a delegate acted for (contract
 * §24) only the decision's event did (see decidedBooking); before calendar invitations (contract §26)
 * no event made one.
 */
export function upcastBooking(stored: StoredBooking): Booking {
  return {
    ...stored,
    createdBy: stored.createdBy ?? stored.bookerProfileId,
    bufferBeforeMinutes: stored.bufferBeforeMinutes ?? 0,
    bufferAfterMinutes: stored.bufferAfterMinutes ?? 0,
    bundleId: stored.bundleId ?? null,
    units: stored.units ?? 1,
    pooled: stored.pooled ?? false,
    onBehalfOf: stored.onBehalfOf ?? null,
    calendarUid: stored.calendarUid ?? null,
  };
}

/**
 * The booking an event leaves. A decision written before the record carried `onBehalfOf` names the
 * approver beside the booking, in the event's data: the record takes it from there.
 */
export function decidedBooking(data: { booking: StoredBooking; onBehalfOf?: string }): Booking {
  const { booking } = data;
  return upcastBooking(booking.onBehalfOf === undefined && data.onBehalfOf !== undefined ? { ...booking, onBehalfOf: data.onBehalfOf } : booking);
}
