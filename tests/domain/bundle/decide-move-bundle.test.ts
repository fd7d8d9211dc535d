import { expect } from 'chai';
import { decideMoveBundle } from '../../../src/domain/bundle/decide-move-bundle.js';
import { alice, at, booking, guest, now, resource } from '../booking/booking-fixtures.js';
import { given } from '../booking/decider-spec.js';
import { quotaUsagesAt } from '../../../src/domain/quota/quota-usage.js';
import { counted, quota } from '../quota/quota-fixtures.js';

const bundleId = 'bbbbbbbb-0000-4000-8000-000000000000';
const member = (id: string) => ({
  booking: booking({ id, bundleId, bookerProfileId: 'alice', startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z' }),
  resource: resource(),
  overlapping: [],
  quotas: [],
  blackouts: [],
});
const move = { startTime: at('2027-01-06T09:00:00Z'), endTime: at('2027-01-06T10:00:00Z') };

describe('moving a bundle (contract §22, in §3’s order)', () => {
  it('moves every booking of the bundle to the new times', () => {
    const events = decideMoveBundle(move, [member('aaaaaaaa-0000-4000-8000-000000000001'), member('aaaaaaaa-0000-4000-8000-000000000002')], alice, now);
    expect(events.map((e) => [e.data.booking.startTime, e.data.booking.endTime])).to.deep.equal([
      ['2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z'],
      ['2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z'],
    ]);
  });

  it('400 for an end not after the start before the 404 of an unknown bundle, as a reschedule answers', () => {
    given([]).when((states) => decideMoveBundle({ startTime: move.startTime, endTime: move.startTime }, states, alice, now)).thenThrows('invalid_request', {
      errors: [{ path: '/body/endTime', message: 'endTime must be after startTime' }],
    });
  });

  it('403 for a guest before the 404 of an unknown bundle', () => {
    given([]).when((states) => decideMoveBundle(move, states, guest, now)).thenThrows('forbidden');
  });

  it('counts the bundle’s other bookings at the new times in each one’s quotas: two moved onto a day with one booked pass a limit of two bookings together → 422 quota', () => {
    const limit = quota({ limit: 2, unit: 'bookings', per: 'day' });
    const there = counted('2027-01-06T13:00:00Z', '2027-01-06T14:00:00Z');
    const withQuota = (id: string) => ({ ...member(id), quotas: quotaUsagesAt([limit], [there], move.startTime) });
    const two = [withQuota('aaaaaaaa-0000-4000-8000-000000000001'), withQuota('aaaaaaaa-0000-4000-8000-000000000002')];
    given(two).when((states) => decideMoveBundle(move, states, alice, now)).thenThrows('policy_violation');
    expect(decideMoveBundle(move, two.slice(0, 1), alice, now)).to.have.length(1);
    const withinTheDay = { startTime: at('2027-01-05T11:00:00Z'), endTime: at('2027-01-05T12:00:00Z') };
    const sameDay = (id: string) => ({ ...member(id), quotas: quotaUsagesAt([limit], [], withinTheDay.startTime) });
    const otherOld = quotaUsagesAt([limit], [counted('2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z')], withinTheDay.startTime);
    expect(decideMoveBundle(withinTheDay, [{ ...sameDay('aaaaaaaa-0000-4000-8000-000000000001'), quotas: otherOld }, { ...sameDay('aaaaaaaa-0000-4000-8000-000000000002'), quotas: otherOld }], alice, now)).to.have.length(2);
  });

  it('404 for an unknown bundle', () => {
    given([]).when((states) => decideMoveBundle(move, states, alice, now)).thenThrows('not_found');
  });
});
