import { randomUUID } from 'node:crypto';
import type { Booking } from '../../src/domain/booking/booking.js';
import type { BookingEvent } from '../../src/domain/booking/booking-events.js';

/** A confirmed booking as the domain records it, for tests that write booking events directly. */
export function sampleBooking(overrides: Partial<Booking> = {}): Booking {
  return {
    id: randomUUID(),
    bookableResourceId: randomUUID(),
    workspace: randomUUID(),
    resourceType: 'zone',
    resourceId: 'zone-1',
    bookerProfileId: 'user-1',
    bookerEmail: 'user@example.com',
    title: 'Sync',
    startTime: '2030-01-01T09:00:00Z',
    endTime: '2030-01-01T10:00:00Z',
    status: 'confirmed',
    isSeriesParent: false,
    recurrenceRule: null,
    recurrenceTimeZone: null,
    recurrenceParentId: null,
    exceptionOf: null,
    confirmedBy: null,
    confirmedAt: null,
    cancelledBy: null,
    cancelledAt: null,
    reason: null,
    checkedInAt: null,
    checkedOutAt: null,
    createdAt: '2029-12-01T08:00:00Z',
    updatedAt: '2029-12-01T08:00:00Z',
    ...overrides,
  };
}

export function bookingCreated(booking: Booking, at = booking.createdAt): BookingEvent {
  return { type: 'BookingCreated', data: { booking, by: booking.bookerProfileId, at } };
}
