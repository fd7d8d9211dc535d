import { expect } from 'chai';
import type { Blackout } from '../../../src/domain/blackout/blackout.js';
import { affectedBookings, decideBlackoutCancellations } from '../../../src/domain/blackout/decide-blackout-cancellations.js';
import { decideCreateBlackout, type CreateBlackout } from '../../../src/domain/blackout/decide-create-blackout.js';
import { decideDeleteBlackout } from '../../../src/domain/blackout/decide-delete-blackout.js';
import { actor, admin, alice, at, booking, now, resource, resourceUuid, workspace } from '../booking/booking-fixtures.js';
import { given } from '../booking/decider-spec.js';

const command = (extra: Partial<CreateBlackout> = {}): CreateBlackout => ({
  id: 'bbbbbbbb-0000-4000-8000-000000000001',
  workspace,
  resourceIds: [resourceUuid],
  from: at('2027-01-11T00:00:00Z'),
  to: at('2027-01-12T00:00:00Z'),
  reason: 'Holiday',
  ...extra,
});
const groupAdmin = actor(3, 'group-admin', { groups: ['g-1'] });
const inGroup = resource({}, { groupId: 'g-1' });
const blackout: Blackout = {
  id: 'bbbbbbbb-0000-4000-8000-000000000001',
  workspace,
  resourceIds: [resourceUuid],
  from: '2027-01-11T00:00:00Z',
  to: '2027-01-12T00:00:00Z',
  reason: 'Holiday',
  createdBy: 'admin',
  createdAt: '2027-01-04T08:00:00Z',
};

describe('deciding a blackout', () => {
  it('records the blackout with its creator', () => {
    given({ resources: [resource()] })
      .when((s) => decideCreateBlackout(command({ reason: '  Holiday ' }), s, admin, now))
      .then({ type: 'BlackoutCreated', data: { blackout, by: 'admin', at: '2027-01-04T08:00:00Z' } });
  });

  it('refuses bad times and reasons (400) before the level (403) and unknown resources (404)', () => {
    given({ resources: [] }).when((s) => decideCreateBlackout(command({ to: at('2027-01-11T00:00:00Z') }), s, alice, now)).thenThrows('invalid_request');
    given({ resources: [] }).when((s) => decideCreateBlackout(command({ to: at('2028-01-13T00:00:00Z') }), s, admin, now)).thenThrows('invalid_request');
    given({ resources: [] }).when((s) => decideCreateBlackout(command({ reason: ' ' }), s, admin, now)).thenThrows('invalid_request');
    given({ resources: [] }).when((s) => decideCreateBlackout(command(), s, alice, now)).thenThrows('forbidden');
    given({ resources: [] }).when((s) => decideCreateBlackout(command(), s, admin, now)).thenThrows('not_found');
    given({ resources: [resource({}, { workspace: '99999999-9999-4999-8999-999999999999' })] })
      .when((s) => decideCreateBlackout(command(), s, admin, now))
      .thenThrows('not_found');
  });

  it('lets LV3 black out the resources of its groups only, never the whole workspace', () => {
    expect(decideCreateBlackout(command(), { resources: [inGroup] }, groupAdmin, now).type).to.equal('BlackoutCreated');
    given({ resources: [resource({}, { groupId: 'g-2' })] }).when((s) => decideCreateBlackout(command(), s, groupAdmin, now)).thenThrows('forbidden');
    given({ resources: [] }).when((s) => decideCreateBlackout(command({ resourceIds: null }), s, groupAdmin, now)).thenThrows('forbidden');
    expect(decideCreateBlackout(command({ resourceIds: null }), { resources: [] }, admin, now).data.blackout.resourceIds).to.equal(null);
  });
});

describe('the bookings a blackout hits', () => {
  const inside = booking({ id: 'in', startTime: '2027-01-11T09:00:00Z', endTime: '2027-01-11T10:00:00Z' });
  const after = booking({ id: 'after', startTime: '2027-01-12T00:00:00Z', endTime: '2027-01-12T01:00:00Z' });
  const cancelledOne = booking({ id: 'gone', startTime: '2027-01-11T09:00:00Z', endTime: '2027-01-11T10:00:00Z', status: 'cancelled' });
  const parent = booking({ id: 'parent', startTime: '2027-01-11T09:00:00Z', endTime: '2027-01-11T10:00:00Z', isSeriesParent: true });

  it('are the active ones overlapping it, series parents aside', () => {
    expect(affectedBookings(blackout, [inside, after, cancelledOne, parent]).map((b) => b.id)).to.deep.equal(['in']);
  });

  it('are cancelled by the actor with the blackout reason, as a cancel would', () => {
    const [event, ...rest] = decideBlackoutCancellations(blackout, [inside, after], new Map([[resourceUuid, resource()]]), admin, now);
    expect(rest).to.deep.equal([]);
    expect(event!.type).to.equal('BookingCancelled');
    expect(event!.data.booking).to.include({ id: 'in', status: 'cancelled', cancelledBy: 'admin', reason: 'Holiday' });
  });
});

describe('deleting a blackout', () => {
  it('answers 404 for an unknown one or one of another workspace, 403 for LV4 and for LV3 outside its groups', () => {
    given({ blackout: null, resources: [] }).when((s) => decideDeleteBlackout(s, admin, now)).thenThrows('not_found');
    given({ blackout, resources: [] })
      .when((s) => decideDeleteBlackout(s, actor(2, 'other', { workspace: '99999999-9999-4999-8999-999999999999' }), now))
      .thenThrows('not_found');
    given({ blackout, resources: [inGroup] }).when((s) => decideDeleteBlackout(s, alice, now)).thenThrows('forbidden');
    given({ blackout, resources: [resource({}, { groupId: 'g-2' })] }).when((s) => decideDeleteBlackout(s, groupAdmin, now)).thenThrows('forbidden');
    given({ blackout: { ...blackout, resourceIds: null }, resources: [] }).when((s) => decideDeleteBlackout(s, groupAdmin, now)).thenThrows('forbidden');
    expect(decideDeleteBlackout({ blackout, resources: [inGroup] }, groupAdmin, now)).to.deep.equal({
      type: 'BlackoutDeleted',
      data: { blackout, by: 'group-admin', at: '2027-01-04T08:00:00Z' },
    });
  });
});
