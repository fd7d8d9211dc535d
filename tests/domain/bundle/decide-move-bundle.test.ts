import { expect } from 'chai';
import { decideMoveBundle } from '../../../src/domain/bundle/decide-move-bundle.js';
import { alice, at, booking, guest, now, resource } from '../booking/booking-fixtures.js';
import { given } from '../booking/decider-spec.js';

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

  it('404 for an unknown bundle', () => {
    given([]).when((states) => decideMoveBundle(move, states, alice, now)).thenThrows('not_found');
  });
});
