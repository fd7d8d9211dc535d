import { expect } from 'chai';
import { decideRescheduleBooking, type RescheduleBookingState } from '../../../src/domain/booking/decide-reschedule-booking.js';
import { admin, alice, at, bob, booking, guest, now, resource } from './booking-fixtures.js';
import { given } from './decider-spec.js';

const state = (extra: Partial<RescheduleBookingState> = {}): RescheduleBookingState => ({
  booking: booking(),
  resource: resource(),
  overlapping: [],
  blackouts: [],
  ...extra,
});
const later = { startTime: at('2027-01-05T11:00:00Z'), endTime: at('2027-01-05T12:00:00Z') };

describe('rescheduling a booking', () => {
  it('moves the times, keeping the previous ones on the event', () => {
    const s = state();
    given(s)
      .when((x) => decideRescheduleBooking(later, x, alice, now))
      .then({
        type: 'BookingRescheduled',
        data: {
          booking: { ...s.booking!, startTime: '2027-01-05T11:00:00Z', endTime: '2027-01-05T12:00:00Z', updatedAt: '2027-01-04T08:00:00Z', sequence: 1 },
          by: 'alice',
          at: '2027-01-04T08:00:00Z',
          previousStartTime: '2027-01-05T09:00:00Z',
          previousEndTime: '2027-01-05T10:00:00Z',
          previousUnits: 1,
        },
      });
  });

  it('keeps the other time when only one is sent', () => {
    const [event] = decideRescheduleBooking({ endTime: at('2027-01-05T10:30:00Z') }, state(), alice, now);
    expect(event!.data.booking).to.include({ startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:30:00Z' });
  });

  it('sends a confirmed booking back to pending where the resource wants approval', () => {
    const s = state({ booking: booking({ confirmedBy: 'admin', confirmedAt: '2027-01-01T00:00:00Z' }), resource: resource({ autoConfirm: false }) });
    const [event] = decideRescheduleBooking(later, s, alice, now);
    expect(event!.data.booking).to.include({ status: 'pending', confirmedBy: null, confirmedAt: null });
  });

  it('a new title alone keeps status and times', () => {
    const s = state({ resource: resource({ autoConfirm: false }) });
    const [event] = decideRescheduleBooking({ title: 'Retro' }, s, alice, now);
    expect(event!.data.booking).to.include({ title: 'Retro', status: 'confirmed', startTime: '2027-01-05T09:00:00Z' });
  });

  it('nothing to change, nothing to record', () => {
    given(state()).when((x) => decideRescheduleBooking({ title: 'Sync', startTime: at('2027-01-05T09:00:00Z') }, x, alice, now)).thenNothing();
  });

  it('detaches an occurrence from its series', () => {
    const parent = 'dddddddd-0000-4000-8000-000000000001';
    const [event] = decideRescheduleBooking(later, state({ booking: booking({ recurrenceParentId: parent }) }), alice, now);
    expect(event!.data.booking).to.include({ recurrenceParentId: null, exceptionOf: parent });
  });

  it('ignores the booking itself but not the others in the way', () => {
    const self = booking({ startTime: '2027-01-05T11:00:00Z', endTime: '2027-01-05T11:30:00Z' });
    const other = booking({ startTime: '2027-01-05T11:30:00Z', endTime: '2027-01-05T12:30:00Z', bookerProfileId: 'bob' });
    given(state({ booking: self, overlapping: [self] })).when((x) => decideRescheduleBooking(later, x, alice, now)).then(decideRescheduleBooking(later, state({ booking: self }), alice, now));
    given(state({ booking: self, overlapping: [self, other] }))
      .when((x) => decideRescheduleBooking(later, x, alice, now))
      .thenThrows('booking_conflict', { conflicts: [{ bookingId: other.id, startTime: other.startTime, endTime: other.endTime }] });
  });

  it('applies the policies to the new times', () => {
    given(state({ resource: resource({ maxDurationMinutes: 30 }) })).when((x) => decideRescheduleBooking(later, x, alice, now)).thenThrows('policy_violation', { policy: 'maxDurationMinutes' });
    given(state({ resource: resource({}, { isActive: false }) })).when((x) => decideRescheduleBooking(later, x, alice, now)).thenThrows('policy_violation', { policy: 'isActive' });
  });

  it('refuses bad times (400): end not after start, start in the past', () => {
    given(state()).when((x) => decideRescheduleBooking({ endTime: at('2027-01-05T09:00:00Z') }, x, alice, now)).thenThrows('invalid_request');
    given(state()).when((x) => decideRescheduleBooking({ startTime: at('2027-01-04T07:00:00Z'), endTime: at('2027-01-04T09:00:00Z') }, x, alice, now)).thenThrows('invalid_request');
  });

  it('only pending or confirmed bookings that are not checked in (409 invalid_transition)', () => {
    for (const status of ['cancelled', 'completed', 'no_show'] as const) {
      given(state({ booking: booking({ status }) })).when((x) => decideRescheduleBooking(later, x, alice, now)).thenThrows('invalid_transition');
    }
    given(state({ booking: booking({ checkedInAt: '2027-01-05T08:50:00Z' }) })).when((x) => decideRescheduleBooking(later, x, alice, now)).thenThrows('invalid_transition');
    given(state({ booking: booking({ isSeriesParent: true }) })).when((x) => decideRescheduleBooking(later, x, admin, now)).thenThrows('invalid_transition');
  });

  it('the booker or an admin; guests never (403); other users’ bookings are invisible (404)', () => {
    expect(decideRescheduleBooking(later, state(), admin, now)).to.have.length(1);
    given(state()).when((x) => decideRescheduleBooking(later, x, bob, now)).thenThrows('not_found');
    given(state({ booking: booking({ bookerProfileId: 'guest' }) })).when((x) => decideRescheduleBooking(later, x, guest, now)).thenThrows('forbidden');
    given(state({ booking: null })).when((x) => decideRescheduleBooking(later, x, alice, now)).thenThrows('not_found');
  });
});
