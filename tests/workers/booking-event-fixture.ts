import { randomUUID } from 'node:crypto';
import type { Booking } from '../../src/domain/booking/booking.js';
import type { BookingEvent } from '../../src/domain/booking/booking-events.js';
import { booking } from '../domain/booking/booking-fixtures.js';

/** A confirmed booking of its own resource and workspace, for tests that write booking events directly. */
export function sampleBooking(overrides: Partial<Booking> = {}): Booking {
  return booking({
    id: randomUUID(),
    bookableResourceId: randomUUID(),
    workspace: randomUUID(),
    resourceId: 'zone-1',
    bookerProfileId: 'user-1',
    bookerEmail: 'user@example.com',
    createdBy: 'user-1',
    startTime: '2030-01-01T09:00:00Z',
    endTime: '2030-01-01T10:00:00Z',
    createdAt: '2029-12-01T08:00:00Z',
    updatedAt: '2029-12-01T08:00:00Z',
    ...overrides,
  });
}

export function bookingCreated(booking: Booking, at = booking.createdAt): BookingEvent {
  return { type: 'BookingCreated', data: { booking, by: booking.bookerProfileId, at } };
}
