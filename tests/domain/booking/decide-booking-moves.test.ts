import { expect } from 'chai';
import type { BookingMoveState } from '../../../src/domain/booking/booking-move-state.js';
import { decideCancelBooking } from '../../../src/domain/booking/decide-cancel-booking.js';
import { decideCheckInBooking } from '../../../src/domain/booking/decide-check-in-booking.js';
import { decideCheckOutBooking } from '../../../src/domain/booking/decide-check-out-booking.js';
import { decideConfirmBooking } from '../../../src/domain/booking/decide-confirm-booking.js';
import type { BookingStatus } from '../../../src/domain/booking/booking.js';
import { actor, admin, alice, at, bob, booking, guest, now, resource } from './booking-fixtures.js';
import { given } from './decider-spec.js';

const state = (extra: Parameters<typeof booking>[0] = {}, policy = {}): BookingMoveState => ({ booking: booking(extra), resource: resource(policy) });
const statuses: BookingStatus[] = ['pending', 'confirmed', 'completed', 'cancelled', 'no_show'];

describe('confirming a booking', () => {
  it('pending → confirmed by an admin, who is recorded', () => {
    const s = state({ status: 'pending' });
    given(s)
      .when((x) => decideConfirmBooking(x, admin, now))
      .then({
        type: 'BookingConfirmed',
        data: {
          booking: { ...s.booking!, status: 'confirmed', confirmedBy: 'admin', confirmedAt: '2027-01-04T08:00:00Z', updatedAt: '2027-01-04T08:00:00Z', sequence: 1 },
          by: 'admin',
          at: '2027-01-04T08:00:00Z',
        },
      });
  });

  it('LV4 and LV5 may not confirm, not even their own (403)', () => {
    given(state({ status: 'pending' })).when((x) => decideConfirmBooking(x, alice, now)).thenThrows('forbidden');
    given(state({ status: 'pending' })).when((x) => decideConfirmBooking(x, guest, now)).thenThrows('forbidden');
  });

  it('only from pending, and only before the start', () => {
    for (const status of statuses.filter((s) => s !== 'pending')) {
      given(state({ status })).when((x) => decideConfirmBooking(x, admin, now)).thenThrows('invalid_transition');
    }
    given(state({ status: 'pending' })).when((x) => decideConfirmBooking(x, admin, at('2027-01-05T09:00:00Z'))).thenThrows('invalid_transition');
  });

  it('an admin of another workspace finds nothing (404)', () => {
    given(state({ status: 'pending' })).when((x) => decideConfirmBooking(x, actor(2, 'other', { workspace: '99999999-9999-4999-8999-999999999999' }), now)).thenThrows('not_found');
  });
});

describe('cancelling a booking', () => {
  it('pending or confirmed → cancelled with who, when and why', () => {
    for (const status of ['pending', 'confirmed'] as const) {
      const event = decideCancelBooking(state({ status }), alice, now, 'Moved online');
      expect(event.data.booking).to.include({ status: 'cancelled', cancelledBy: 'alice', cancelledAt: '2027-01-04T08:00:00Z', reason: 'Moved online' });
    }
  });

  it('twice, or from any other status, is an invalid move', () => {
    for (const status of ['cancelled', 'completed', 'no_show'] as const) {
      given(state({ status })).when((x) => decideCancelBooking(x, admin, now)).thenThrows('invalid_transition');
    }
  });

  it('cancellationPolicy: LV4/LV5 cancel a confirmed booking only until minNoticeMinutes before the start', () => {
    const policy = { cancellationPolicy: { minNoticeMinutes: 60 } };
    expect(decideCancelBooking(state({}, policy), alice, at('2027-01-05T08:00:00Z')).type).to.equal('BookingCancelled');
    given(state({}, policy)).when((x) => decideCancelBooking(x, alice, at('2027-01-05T08:00:01Z'))).thenThrows('policy_violation', { policy: 'cancellationPolicy' });
    given(state({ bookerProfileId: 'guest' }, policy)).when((x) => decideCancelBooking(x, guest, at('2027-01-05T08:30:00Z'))).thenThrows('policy_violation', { policy: 'cancellationPolicy' });
  });

  it('the policy does not bind admins, nor a pending booking', () => {
    const policy = { cancellationPolicy: { minNoticeMinutes: 60 } };
    expect(decideCancelBooking(state({}, policy), admin, at('2027-01-05T08:30:00Z')).type).to.equal('BookingCancelled');
    expect(decideCancelBooking(state({ status: 'pending' }, policy), alice, at('2027-01-05T08:30:00Z')).type).to.equal('BookingCancelled');
  });

  it('another user’s booking is invisible to LV4 (404)', () => {
    given(state()).when((x) => decideCancelBooking(x, bob, now)).thenThrows('not_found');
  });
});

describe('checking in', () => {
  it('sets checkedInAt from 15 minutes before the start; the status stays confirmed', () => {
    const event = decideCheckInBooking(state(), alice, at('2027-01-05T08:45:00Z'));
    expect(event.data.booking).to.include({ status: 'confirmed', checkedInAt: '2027-01-05T08:45:00Z' });
    expect(decideCheckInBooking(state(), alice, at('2027-01-05T09:59:59Z')).type).to.equal('BookingCheckedIn');
  });

  it('outside the window: 409 outside_checkin_window', () => {
    given(state()).when((x) => decideCheckInBooking(x, alice, at('2027-01-05T08:44:59Z'))).thenThrows('outside_checkin_window');
    given(state()).when((x) => decideCheckInBooking(x, alice, at('2027-01-05T10:00:00Z'))).thenThrows('outside_checkin_window');
  });

  it('only a confirmed booking, once', () => {
    const inWindow = at('2027-01-05T09:00:00Z');
    for (const status of statuses.filter((s) => s !== 'confirmed')) {
      given(state({ status })).when((x) => decideCheckInBooking(x, alice, inWindow)).thenThrows('invalid_transition');
    }
    given(state({ checkedInAt: '2027-01-05T08:50:00Z' })).when((x) => decideCheckInBooking(x, alice, inWindow)).thenThrows('invalid_transition');
  });
});

describe('checking out', () => {
  it('confirmed → completed with checkedOutAt', () => {
    const event = decideCheckOutBooking(state({ checkedInAt: '2027-01-05T08:50:00Z' }), alice, at('2027-01-05T09:40:00Z'));
    expect(event.type).to.equal('BookingCheckedOut');
    expect(event.data.booking).to.include({ status: 'completed', checkedOutAt: '2027-01-05T09:40:00Z' });
  });

  it('from any other status is an invalid move', () => {
    for (const status of statuses.filter((s) => s !== 'confirmed')) {
      given(state({ status })).when((x) => decideCheckOutBooking(x, alice, now)).thenThrows('invalid_transition');
    }
  });
});
