import { expect } from 'chai';
import { upcastBooking, type StoredBooking } from '../../src/domain/booking/upcast-booking.js';
import { bookingJson } from '../../src/api/booking/booking-json.js';
import { bookingToRow } from '../../src/projections/booking/booking-row.js';
import { toEventEnvelope } from '../../src/domain/event-envelope.js';
import { booking as aBooking } from '../domain/booking/booking-fixtures.js';

describe('upcastBooking: the one home of the defaults of events written before a field existed', () => {
  const { createdBy: _createdBy, bufferBeforeMinutes: _before, bufferAfterMinutes: _after, bundleId: _bundleId, ...old } = aBooking({ bufferBeforeMinutes: 10, bufferAfterMinutes: 5 });
  const stored: StoredBooking = old;

  it('given a booking of an event written before booking on behalf, buffers and bundles, when upcast, then its booker created it, it has no buffers and no bundle', () => {
    const booking = upcastBooking(stored);
    expect(booking.createdBy).to.equal(stored.bookerProfileId);
    expect([booking.bufferBeforeMinutes, booking.bufferAfterMinutes, booking.bundleId]).to.deep.equal([0, 0, null]);
  });

  it('given a booking that carries every field, when upcast, then it is unchanged', () => {
    const whole = aBooking({ bufferBeforeMinutes: 10, bufferAfterMinutes: 5, createdBy: 'assistant' });
    expect(upcastBooking(whole)).to.deep.equal(whole);
  });

  it('the record, the read-model row and the published envelope all read an old booking through it', () => {
    const booking = upcastBooking(stored);
    const json = bookingJson(stored);
    expect([json.createdBy, json.bufferBeforeMinutes, json.bufferAfterMinutes, json.bundleId]).to.deep.equal([booking.createdBy, 0, 0, null]);
    const row = bookingToRow(stored);
    expect([row.created_by, row.buffer_before_minutes, row.buffer_after_minutes, row.bundle_id]).to.deep.equal([booking.createdBy, 0, 0, null]);
    const envelope = toEventEnvelope({ id: 'e1', globalPosition: 1, type: 'BookingCreated', data: { booking: stored, by: 'alice', at: booking.createdAt } });
    expect([envelope?.data.createdBy, envelope?.data.bundleId]).to.deep.equal([booking.createdBy, null]);
  });
});
