import { expect } from 'chai';
import type { PlacementState } from '../../../src/domain/placement/placement-refusal.js';
import { decideCreateBundle, type CreateBundle } from '../../../src/domain/bundle/decide-create-bundle.js';
import { alice, at, booking, guest, now, resource } from '../booking/booking-fixtures.js';
import { given } from '../booking/decider-spec.js';

const bundle = (extra: Partial<CreateBundle> = {}): CreateBundle => ({
  id: 'bbbbbbbb-0000-4000-8000-000000000000',
  bookingIds: ['aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-0000-4000-8000-000000000003'],
  items: ['room', 'kit', 'corner'].map((resourceId) => ({ resourceType: 'zone', resourceId })),
  title: 'Board',
  startTime: at('2027-01-05T09:00:00Z'),
  endTime: at('2027-01-05T10:00:00Z'),
  ...extra,
});
const free = (policy = {}, id = crypto.randomUUID()): PlacementState => ({ resource: resource(policy, { id }), overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] });
const unknown: PlacementState = { resource: null, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] };
const taken = (id: string): PlacementState => ({ ...free(), overlapping: [booking({ id, startTime: '2027-01-05T09:30:00Z', endTime: '2027-01-05T10:30:00Z' })] });

describe('deciding a bundle (contract §22)', () => {
  it('books every item, in the items’ order, each booking carrying the bundle’s id', () => {
    const events = decideCreateBundle(bundle(), [free(), free(), free()], alice, now);
    expect(events.map((e) => [e.data.booking.id, e.data.booking.bundleId])).to.deep.equal(bundle().bookingIds.map((id) => [id, bundle().id]));
  });

  it('400 for a resource twice, before anything else', () => {
    given([unknown, free(), free()])
      .when((states) => decideCreateBundle(bundle({ items: ['room', 'kit', 'room'].map((resourceId) => ({ resourceType: 'zone', resourceId })) }), states, guest, now))
      .thenThrows('invalid_request', { errors: [{ path: '/body/items/2', message: 'a bundle books each resource once' }] });
  });

  it('403 for a guest before a 404 of any item', () => {
    given([free(), unknown, free()]).when((states) => decideCreateBundle(bundle(), states, guest, now)).thenThrows('forbidden');
  });

  it('404 for the first unknown item before a 422 of an earlier one', () => {
    given([free({ maxDurationMinutes: 30 }), free(), unknown]).when((states) => decideCreateBundle(bundle(), states, alice, now)).thenThrows('not_found', { item: 2 });
  });

  it('422 for the first item violating a policy, with policy and item, before any conflict', () => {
    given([taken('cccccccc-0000-4000-8000-000000000001'), free({ maxDurationMinutes: 30 }), free({ maxDurationMinutes: 15 })])
      .when((states) => decideCreateBundle(bundle(), states, alice, now))
      .thenThrows('policy_violation', { policy: 'maxDurationMinutes', item: 1 });
  });

  it('409 with the conflicts of every item', () => {
    const error = given([taken('cccccccc-0000-4000-8000-000000000001'), free(), taken('cccccccc-0000-4000-8000-000000000002')])
      .when((states) => decideCreateBundle(bundle(), states, alice, now))
      .thenThrows('booking_conflict');
    expect(error.details.conflicts!.map((c) => c.bookingId)).to.deep.equal(['cccccccc-0000-4000-8000-000000000001', 'cccccccc-0000-4000-8000-000000000002']);
  });
});
