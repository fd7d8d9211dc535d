import { expect } from 'chai';
import type { BookingCancelled } from '../../../src/domain/booking/booking-events.js';
import type { Booking } from '../../../src/domain/booking/booking.js';
import { promoteWaiters, reachOfFreeing, type Waiter } from '../../../src/domain/waitlist/promote-waiters.js';
import type { WaitlistEntry } from '../../../src/domain/waitlist/waitlist-entry.js';
import { at, booking, now, resource, workspace } from '../booking/booking-fixtures.js';
import { waitlistEntry as entry } from './waitlist-fixtures.js';
import { given } from '../booking/decider-spec.js';

// Contract §23: a freeing on the resource promotes the waiters, first made first, in the same decision.
const room = resource();
const taken = booking({ startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z', bookerProfileId: 'owner' });

const waiter = (e: WaitlistEntry, overlapping: Booking[] = [taken], extra: Partial<Waiter['state']> = {}): Waiter => ({
  entry: e,
  state: { resource: room, overlapping, activeBookingsOfBooker: 0, quotas: [], blackouts: [], ...extra },
});
const cancel = (b: Booking): BookingCancelled => ({ type: 'BookingCancelled', data: { booking: { ...b, status: 'cancelled' }, by: 'owner', at: now.toString() } });
const ids = () => {
  let i = 0;
  return () => `b0000000-0000-4000-8000-${String(++i).padStart(12, '0')}`;
};
const promote = (freeing: BookingCancelled[]) => (waiters: Waiter[]) => promoteWaiters(freeing, waiters, now, ids());

describe('promoteWaiters (contract §23)', () => {
  it('fit: the freed slot becomes the waiter\'s booking, made by "system", and the entry is fulfilled with its id', () => {
    const bob = entry();
    const events = promote([cancel(taken)])([waiter(bob)]);
    expect(events.map((e) => e.type)).to.deep.equal(['BookingCreated', 'WaitlistFulfilled']);
    const created = events[0]!.data as { booking: Booking; by: string };
    expect(created.booking).to.include({ bookerProfileId: 'bob', createdBy: 'system', status: 'confirmed', startTime: bob.startTime, endTime: bob.endTime, title: 'Waiting' });
    expect(created.by).to.equal('system');
    const fulfilled = events[1]!.data as { entry: WaitlistEntry };
    expect(fulfilled.entry).to.include({ id: bob.id, status: 'fulfilled', bookingId: created.booking.id, closedAt: now.toString() });
  });

  it('an entry the freeing does not clear keeps waiting', () => {
    const other = booking({ startTime: '2027-01-05T09:30:00Z', endTime: '2027-01-05T10:30:00Z' });
    given([waiter(entry(), [taken, other])])
      .when(promote([cancel(taken)]))
      .thenNothing();
  });

  it('FIFO: the first waiter takes the slot, the next one overlapping it keeps waiting, a later one elsewhere fits too', () => {
    const first = entry({ bookerProfileId: 'carol' });
    const second = entry({ startTime: '2027-01-05T09:30:00Z' });
    const third = entry({ startTime: '2027-01-05T10:00:00Z', endTime: '2027-01-05T11:00:00Z', bookerProfileId: 'dave' });
    const events = promote([cancel(taken)])([waiter(first), waiter(second), waiter(third, [])]);
    const fulfilled = events.filter((e) => e.type === 'WaitlistFulfilled').map((e) => (e.data as { entry: WaitlistEntry }).entry.id);
    expect(fulfilled).to.deep.equal([first.id, third.id]);
  });

  it('refused: an entry the create refuses for another reason than a conflict is closed refused with the policy', () => {
    const longer = entry({ endTime: '2027-01-05T12:00:00Z' });
    const strict = { ...waiter(longer), state: { ...waiter(longer).state, resource: resource({ maxDurationMinutes: 60 }) } };
    given([strict])
      .when(promote([cancel(taken)]))
      .then([{ type: 'WaitlistClosed', data: { entry: { ...longer, status: 'refused', policy: 'maxDurationMinutes', closedAt: now.toString() }, by: 'system', at: now.toString() } }]);
  });

  it('refused counts the earlier promotions: a booker at maxBookingsPerUser gets one slot, not two', () => {
    const limited = resource({ maxBookingsPerUser: 1 });
    const first = entry();
    const second = entry({ startTime: '2027-01-05T11:00:00Z', endTime: '2027-01-05T12:00:00Z' });
    const events = promote([cancel(taken)])([
      { entry: first, state: { ...waiter(first).state, resource: limited } },
      { entry: second, state: { ...waiter(second, []).state, resource: limited } },
    ]);
    expect(events.map((e) => [e.type, (e.data as { entry?: WaitlistEntry }).entry?.status])).to.deep.equal([
      ['BookingCreated', undefined],
      ['WaitlistFulfilled', 'fulfilled'],
      ['WaitlistClosed', 'refused'],
    ]);
  });

  it('refused counts the earlier promotions in the quotas too: a booker with one booking a day left gets one slot, not two', () => {
    const quota = {
      id: 'q0000000-0000-4000-8000-000000000001', workspace, resourceType: null, groupId: null, resourceIds: null, limit: 1, unit: 'bookings' as const, per: 'day' as const,
      timeZone: 'UTC', createdBy: 'admin', createdAt: '2027-01-01T00:00:00Z',
      periodStart: at('2027-01-05T00:00:00Z'), periodEnd: at('2027-01-06T00:00:00Z'), used: 0,
    };
    const first = entry();
    const second = entry({ startTime: '2027-01-05T11:00:00Z', endTime: '2027-01-05T12:00:00Z' });
    const events = promote([cancel(taken)])([waiter(first, [taken], { quotas: [quota] }), waiter(second, [], { quotas: [quota] })]);
    expect(events.map((e) => [e.type, (e.data as { entry?: WaitlistEntry }).entry?.policy])).to.deep.equal([
      ['BookingCreated', undefined],
      ['WaitlistFulfilled', null],
      ['WaitlistClosed', 'quota'],
    ]);
  });

  it('units: on a pool, a freeing lets in the waiters whose units now fit, first made first; one asking more keeps waiting', () => {
    const pool = resource({}, { units: 3 });
    const twoUnits = booking({ startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z', units: 2, pooled: true, bookerProfileId: 'owner' });
    const oneUnit = booking({ startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z', units: 1, pooled: true, bookerProfileId: 'owner' });
    const asksThree = entry({ units: 3 });
    const asksTwo = entry({ units: 2 });
    const asksOne = entry({ units: 1 });
    const held = [twoUnits, oneUnit];
    const events = promote([cancel(twoUnits)])([asksThree, asksTwo, asksOne].map((e) => ({ entry: e, state: { ...waiter(e, held).state, resource: pool } })));
    expect(events.map((e) => [e.type, (e.data as { entry?: WaitlistEntry }).entry?.id ?? (e.data as { booking?: Booking }).booking?.units])).to.deep.equal([
      ['BookingCreated', 2],
      ['WaitlistFulfilled', asksTwo.id],
    ]);
  });

  it('expired: an entry whose start has passed is closed expired, not booked', () => {
    const late = entry({ startTime: '2027-01-04T07:30:00Z', endTime: '2027-01-04T09:00:00Z' });
    given([waiter(late, [])])
      .when(promote([]))
      .then([{ type: 'WaitlistClosed', data: { entry: { ...late, status: 'expired', closedAt: now.toString() }, by: 'system', at: now.toString() } }]);
  });

  it('a pending booking when the resource does not confirm by itself', () => {
    const bob = entry();
    const events = promote([cancel(taken)])([{ entry: bob, state: { ...waiter(bob).state, resource: resource({ autoConfirm: false }) } }]);
    expect((events[0]!.data as { booking: Booking }).booking.status).to.equal('pending');
  });

  it('a freeing reaches the entries whose occupied range meets the freed one, buffers on both sides', () => {
    const buffered = resource({ bufferBeforeMinutes: 10, bufferAfterMinutes: 5 });
    const freed = booking({ startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z', bufferBeforeMinutes: 15, bufferAfterMinutes: 0 });
    expect(reachOfFreeing([freed], buffered)).to.deep.equal([{ fromMs: Date.parse('2027-01-05T08:40:00Z'), toMs: Date.parse('2027-01-05T10:10:00Z') }]);
  });

  describe('a promotion is the create of the principal that joined (its level and groups recorded on the entry)', () => {
    const bookedFor = (events: ReturnType<ReturnType<typeof promote>>) => events.flatMap((e) => (e.type === 'BookingCreated' ? [e.data.booking.bookerProfileId] : []));

    it('an entry an admin (LV3) joined for carol becomes carol\'s booking', () => {
      const forCarol = entry({ bookerProfileId: 'carol', createdBy: 'admin-3', joinedAs: { level: 3, groups: ['g-1'] } });
      expect(bookedFor(promote([cancel(taken)])([waiter(forCarol)]))).to.deep.equal(['carol']);
    });

    it('the recorded level decides: an entry recorded as a user\'s (LV4) for somebody else is refused as that create would be (403)', () => {
      const onBehalfAsUser = entry({ bookerProfileId: 'carol', createdBy: 'dave', joinedAs: { level: 4, groups: [] } });
      const events = promote([cancel(taken)])([waiter(onBehalfAsUser)]);
      expect(events.map((e) => [e.type, (e.data as { entry?: WaitlistEntry }).entry?.status, (e.data as { entry?: WaitlistEntry }).entry?.policy])).to.deep.equal([
        ['WaitlistClosed', 'refused', 'forbidden'],
      ]);
    });
  });
});
