import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import type { Booking, BookingStatus } from '../../../src/domain/booking/booking.js';
import { publishedEventName } from '../../../src/domain/booking/booking-events.js';
import { storedBookingEventTypes } from '../../../src/domain/booking/booking-archived.js';
import { decideArchiveBookings } from '../../../src/domain/booking/decide-archive-bookings.js';

const booking = (id: string, status: BookingStatus, endTime: string, extra: Partial<Booking> = {}): Booking => ({
  id, bookableResourceId: 'r', workspace: 'w', resourceType: 'zone', resourceId: 'z', bookerProfileId: 'alice', bookerEmail: null, createdBy: 'alice',
  title: 't', startTime: '2024-01-01T09:00:00Z', endTime, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, bundleId: null, calendarUid: null, units: 1, pooled: false, status, isSeriesParent: false, recurrenceRule: null, recurrenceTimeZone: null,
  recurrenceParentId: null, exceptionOf: null, confirmedBy: null, confirmedAt: null, cancelledBy: null, cancelledAt: null, onBehalfOf: null, reason: null,
  checkedInAt: null, checkedOutAt: null, createdAt: '2023-12-01T00:00:00Z', updatedAt: '2023-12-01T00:00:00Z', ...extra,
});

const now = Temporal.Instant.from('2026-06-01T00:00:00Z');
const ids = (events: { data: { booking: { id: string } } }[]) => events.map((e) => e.data.booking.id);

describe('decideArchiveBookings (retention, contract §13)', () => {
  it('archives cancelled, completed and no-show bookings that ended before the cut-off, stamped by system at now', () => {
    const events = decideArchiveBookings(
      [booking('c', 'cancelled', '2024-01-01T10:00:00Z'), booking('d', 'completed', '2024-01-01T10:00:00Z'), booking('n', 'no_show', '2024-01-01T10:00:00Z')],
      Temporal.Instant.from('2025-01-01T00:00:00Z'),
      now,
    );
    expect(ids(events)).to.deep.equal(['c', 'd', 'n']);
    expect(events.every((e) => e.type === 'BookingArchived' && e.data.by === 'system' && e.data.at === '2026-06-01T00:00:00Z')).to.equal(true);
    expect(events[0]!.data.booking).to.deep.include({ status: 'cancelled', archivedAt: '2026-06-01T00:00:00Z', updatedAt: '2023-12-01T00:00:00Z' });
  });

  it('leaves pending and confirmed bookings to the process manager, even long after their end', () => {
    const past = '2024-01-01T10:00:00Z';
    expect(decideArchiveBookings([booking('p', 'pending', past), booking('k', 'confirmed', past)], now, now)).to.deep.equal([]);
  });

  it('archives nothing that ends at or after the cut-off, and a future before is held to now', () => {
    const before = Temporal.Instant.from('2025-01-01T00:00:00Z');
    expect(decideArchiveBookings([booking('edge', 'cancelled', '2025-01-01T00:00:00Z')], before, now)).to.deep.equal([]);
    // Checked out early: completed, but its end is still ahead of now.
    const future = Temporal.Instant.from('2100-01-01T00:00:00Z');
    expect(ids(decideArchiveBookings([booking('early', 'completed', '2026-06-01T01:00:00Z'), booking('done', 'completed', '2026-05-31T23:00:00Z')], future, now))).to.deep.equal(['done']);
  });

  it('archives a booking once: one already archived is left alone', () => {
    expect(decideArchiveBookings([booking('a', 'cancelled', '2024-01-01T10:00:00Z', { archivedAt: '2025-01-01T00:00:00Z' })], now, now)).to.deep.equal([]);
  });

  it('keeps BookingArchived out of the published kinds while the booking read models follow it', () => {
    expect(Object.keys(publishedEventName)).to.not.include('BookingArchived');
    expect(storedBookingEventTypes.has('BookingArchived')).to.equal(true);
  });
});
