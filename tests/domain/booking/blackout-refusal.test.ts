import { expect } from 'chai';
import type { Blackout } from '../../../src/domain/blackout/blackout.js';
import { blackoutRefusal } from '../../../src/domain/booking/blackout-refusal.js';
import { decideCreateBooking, type CreateBooking, type CreateBookingState } from '../../../src/domain/booking/decide-create-booking.js';
import { alice, at, booking, now, resource, resourceUuid, workspace } from './booking-fixtures.js';
import { given } from './decider-spec.js';

const otherResource = '33333333-3333-4333-8333-333333333333';
const blackout = (id: string, from: string, to: string, resourceIds: string[] | null = [resourceUuid]): Blackout => ({
  id,
  workspace,
  resourceIds,
  from,
  to,
  reason: 'Holiday',
  createdBy: 'admin',
  createdAt: '2027-01-01T00:00:00Z',
});

describe('a blackout refusing a booking', () => {
  const start = at('2027-01-05T09:00:00Z');
  const end = at('2027-01-05T10:00:00Z');

  it('refuses a booking whose times overlap a blackout covering its resource', () => {
    const hit = blackout('b1', '2027-01-05T00:00:00Z', '2027-01-06T00:00:00Z');
    expect(blackoutRefusal([hit], resourceUuid, start, end)).to.equal(hit);
  });

  it('lets touching ends pass, as bookings do ([from, to) and [start, end) share no time)', () => {
    expect(blackoutRefusal([blackout('b1', '2027-01-05T10:00:00Z', '2027-01-06T00:00:00Z')], resourceUuid, start, end)).to.equal(null);
    expect(blackoutRefusal([blackout('b2', '2027-01-05T00:00:00Z', '2027-01-05T09:00:00Z')], resourceUuid, start, end)).to.equal(null);
  });

  it('ignores blackouts of other resources; a workspace-wide one covers every resource', () => {
    expect(blackoutRefusal([blackout('b1', '2027-01-05T00:00:00Z', '2027-01-06T00:00:00Z', [otherResource])], resourceUuid, start, end)).to.equal(null);
    const wide = blackout('b2', '2027-01-05T00:00:00Z', '2027-01-06T00:00:00Z', null);
    expect(blackoutRefusal([wide], resourceUuid, start, end)).to.equal(wide);
  });

  it('answers the first by from, then by id', () => {
    const late = blackout('a-late', '2027-01-05T09:30:00Z', '2027-01-06T00:00:00Z');
    const earlyB = blackout('b-early', '2027-01-05T09:00:00Z', '2027-01-06T00:00:00Z');
    const earlyA = blackout('a-early', '2027-01-05T09:00:00Z', '2027-01-05T09:10:00Z');
    expect(blackoutRefusal([late, earlyB, earlyA], resourceUuid, start, end)).to.equal(earlyA);
  });
});

describe('deciding a new booking inside a blackout', () => {
  const command: CreateBooking = { id: 'aaaaaaaa-0000-4000-8000-000000000001', title: 'Sync', startTime: at('2027-01-05T09:00:00Z'), endTime: at('2027-01-05T10:00:00Z') };
  const state = (extra: Partial<CreateBookingState> = {}): CreateBookingState => ({ resource: resource(), overlapping: [], activeBookingsOfBooker: 0, blackouts: [], quotas: [], ...extra });
  const holiday = blackout('bbbbbbbb-0000-4000-8000-000000000001', '2027-01-05T00:00:00Z', '2027-01-06T00:00:00Z');

  it('refuses with 422 policy blackout and the blackout id', () => {
    given(state({ blackouts: [holiday] }))
      .when((s) => decideCreateBooking(command, s, alice, now))
      .thenThrows('policy_violation', { policy: 'blackout', blackoutId: holiday.id });
  });

  it('checks the blackout after the booking limit and before conflicts', () => {
    const limited = resource({ maxBookingsPerUser: 1 });
    given(state({ resource: limited, activeBookingsOfBooker: 1, blackouts: [holiday] }))
      .when((s) => decideCreateBooking(command, s, alice, now))
      .thenThrows('policy_violation', { policy: 'maxBookingsPerUser' });
    const inTheWay = booking({ startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z' });
    given(state({ overlapping: [inTheWay], blackouts: [holiday] }))
      .when((s) => decideCreateBooking(command, s, alice, now))
      .thenThrows('policy_violation', { policy: 'blackout' });
  });

  it('books when the blackouts it was given cover other resources or other times', () => {
    const elsewhere = blackout('b1', '2027-01-05T00:00:00Z', '2027-01-06T00:00:00Z', [otherResource]);
    const later = blackout('b2', '2027-01-07T00:00:00Z', '2027-01-08T00:00:00Z', null);
    const event = decideCreateBooking(command, state({ blackouts: [elsewhere, later] }), alice, now);
    expect(event.type).to.equal('BookingCreated');
  });
});
