import { expect } from 'chai';
import type { ApprovalDelegation } from '../../../src/domain/approval/approval-delegation.js';
import { decideCancelBooking } from '../../../src/domain/booking/decide-cancel-booking.js';
import { decideConfirmBooking } from '../../../src/domain/booking/decide-confirm-booking.js';
import { decideCreateBooking } from '../../../src/domain/booking/decide-create-booking.js';
import { actor, at, booking, now, resource, workspace } from '../booking/booking-fixtures.js';
import { given } from '../booking/decider-spec.js';

// Contract §24: approvers and their delegates decide the pending bookings of their resources.
const carol = actor(4, 'carol');
const dave = actor(5, 'dave');
const room = resource({ autoConfirm: false, approvers: ['carol'] });
const otherRoom = resource({ autoConfirm: false, approvers: ['someone-else'] });
const delegation = (extra: Partial<ApprovalDelegation> = {}): ApprovalDelegation => ({
  id: 'd-1',
  workspace,
  approverProfileId: 'carol',
  delegateProfileId: 'dave',
  from: '2027-01-01T00:00:00Z',
  to: '2027-01-10T00:00:00Z',
  createdAt: '2026-12-31T00:00:00Z',
  ...extra,
});

describe('approvers (contract §24)', () => {
  it('an approver (LV4) confirms a pending booking of its resource: confirmedBy is the approver', () => {
    const event = decideConfirmBooking({ booking: booking({ status: 'pending' }), resource: room }, carol, now);
    expect(event.data.booking).to.include({ status: 'confirmed', confirmedBy: 'carol' });
    expect(event.data).not.to.have.property('onBehalfOf');
    expect(event.data.booking.onBehalfOf).to.equal(null);
  });

  it('an approver declines a pending booking with a reason', () => {
    const event = decideCancelBooking({ booking: booking({ status: 'pending' }), resource: room }, carol, now, 'room needed');
    expect(event.data.booking).to.include({ status: 'cancelled', cancelledBy: 'carol', reason: 'room needed' });
  });

  it('outside its resources an approver may not decide: 403', () => {
    given({ booking: booking({ status: 'pending' }), resource: otherRoom })
      .when((state) => decideConfirmBooking(state, carol, now))
      .thenThrows('forbidden');
  });

  it('a booking no longer pending was decided already: the approver and its delegate alike get invalid_transition', () => {
    for (const status of ['confirmed', 'cancelled'] as const) {
      const state = { booking: booking({ status }), resource: room, delegations: [delegation()] };
      for (const who of [carol, dave]) {
        given(state).when((s) => decideCancelBooking(s, who, now)).thenThrows('invalid_transition');
        given(state).when((s) => decideConfirmBooking(s, who, now)).thenThrows('invalid_transition');
      }
    }
  });

  it('a booking of another workspace is not there (not_found), even for an approver its resource names', () => {
    const elsewhere = { booking: booking({ status: 'pending', workspace: 'another-workspace' }), resource: { ...room, workspace: 'another-workspace' } };
    given(elsewhere).when((state) => decideConfirmBooking(state, carol, now)).thenThrows('not_found');
    given(elsewhere).when((state) => decideCancelBooking(state, carol, now)).thenThrows('not_found');
  });

  it('a delegate decides between from and to, onBehalfOf the approver', () => {
    const state = { booking: booking({ status: 'pending' }), resource: room, delegations: [delegation()] };
    const confirmed = decideConfirmBooking(state, dave, now);
    expect(confirmed.data).to.include({ by: 'dave', onBehalfOf: 'carol' });
    expect(confirmed.data.booking.confirmedBy).to.equal('dave');
    expect(confirmed.data.booking.onBehalfOf).to.equal('carol');
    const declined = decideCancelBooking(state, dave, now, 'no');
    expect(declined.data).to.include({ by: 'dave', onBehalfOf: 'carol' });
    expect(declined.data.booking).to.include({ cancelledBy: 'dave', onBehalfOf: 'carol' });
  });

  it('a delegation outside its window, or of someone who is no approver of the resource, gives no right', () => {
    const pending = booking({ status: 'pending' });
    given({ booking: pending, resource: room, delegations: [delegation()] })
      .when((state) => decideConfirmBooking(state, dave, at('2027-01-10T00:00:00Z')))
      .thenThrows('forbidden');
    given({ booking: pending, resource: otherRoom, delegations: [delegation()] })
      .when((state) => decideConfirmBooking(state, dave, now))
      .thenThrows('forbidden');
  });

  it('the booking.create of a pending booking names the approvers and the delegates active then', () => {
    const state = { resource: room, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [], delegations: [delegation()] };
    const command = { id: 'b-new', title: 'x', startTime: at('2027-01-05T09:00:00Z'), endTime: at('2027-01-05T10:00:00Z') };
    const event = decideCreateBooking(command, state, actor(4, 'alice'), now);
    expect(event.data.approvers).to.deep.equal(['carol', 'dave']);
    const confirmed = decideCreateBooking(command, { ...state, resource: resource({ approvers: ['carol'] }) }, actor(4, 'alice'), now);
    expect(confirmed.data).not.to.have.property('approvers');
  });
});
