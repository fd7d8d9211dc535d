import { expect } from 'chai';
import { decideCreateBooking, type CreateBooking, type CreateBookingState } from '../../../src/domain/booking/decide-create-booking.js';
import { decideRescheduleBooking } from '../../../src/domain/booking/decide-reschedule-booking.js';
import { decideCreateSeries, type CreateSeries } from '../../../src/domain/booking/series/decide-create-series.js';
import type { Quota } from '../../../src/domain/quota/quota.js';
import { quotaRefusal } from '../../../src/domain/quota/quota-refusal.js';
import { occurrencesRefusal } from '../../../src/domain/placement/occurrences-refusal.js';
import { quotaUsagesAt, type CountedBooking } from '../../../src/domain/quota/quota-usage.js';
import { alice, at, booking, now, resource } from '../booking/booking-fixtures.js';
import { given } from '../booking/decider-spec.js';
import { counted, quota, quotaId } from './quota-fixtures.js';

const room = resource();
const usagesAt = (quotas: Quota[], bookings: CountedBooking[], start: string) => quotaUsagesAt(quotas, bookings, at(start));
const refusal = (q: Quota, bookings: CountedBooking[], start: string, end: string, on = room) =>
  quotaRefusal(usagesAt([q], bookings, start), on, at(start), at(end))?.id ?? null;

describe('a quota refusing a booking', () => {
  describe('hours', () => {
    it('sums the durations of the period and refuses only what goes past the limit', () => {
      const done = [counted('2027-01-05T08:00:00Z', '2027-01-05T09:30:00Z'), counted('2027-01-05T12:00:00Z', '2027-01-05T13:00:00Z')];
      expect(usagesAt([quota()], done, '2027-01-05T15:00:00Z')[0]!.used).to.equal(2.5);
      expect(refusal(quota(), done, '2027-01-05T15:00:00Z', '2027-01-05T15:30:00Z')).to.equal(null);
      expect(refusal(quota(), done, '2027-01-05T15:00:00Z', '2027-01-05T15:31:00Z')).to.equal(quotaId);
    });

    it('a fractional limit holds exactly (0.1 + 0.2 hours fit 0.3)', () => {
      const q = quota({ limit: 0.3 });
      expect(refusal(q, [counted('2027-01-05T08:00:00Z', '2027-01-05T08:06:00Z')], '2027-01-05T09:00:00Z', '2027-01-05T09:12:00Z')).to.equal(null);
    });

    it('a booking counts in the period where it starts, wherever it ends', () => {
      const overnight = counted('2027-01-04T22:00:00Z', '2027-01-05T02:00:00Z');
      expect(usagesAt([quota()], [overnight], '2027-01-05T09:00:00Z')[0]!.used).to.equal(0);
      expect(usagesAt([quota()], [overnight], '2027-01-04T23:00:00Z')[0]!.used).to.equal(4);
    });

    it('one booking longer than the limit is refused on its own', () => {
      expect(refusal(quota(), [], '2027-01-05T09:00:00Z', '2027-01-05T13:00:00Z')).to.equal(quotaId);
    });
  });

  describe('bookings', () => {
    it('counts bookings whatever their length', () => {
      const q = quota({ unit: 'bookings', limit: 2 });
      const done = [counted('2027-01-05T08:00:00Z', '2027-01-05T08:15:00Z')];
      expect(refusal(q, done, '2027-01-05T09:00:00Z', '2027-01-05T17:00:00Z')).to.equal(null);
      done.push(counted('2027-01-05T10:00:00Z', '2027-01-05T10:15:00Z'));
      expect(refusal(q, done, '2027-01-05T11:00:00Z', '2027-01-05T11:05:00Z')).to.equal(quotaId);
    });

    it('a week in its zone: Monday counts with Sunday only in the same ISO week', () => {
      const q = quota({ unit: 'bookings', limit: 1, per: 'week', timeZone: 'Europe/Berlin' });
      // Sunday 23:30 UTC is Monday 00:30 in Berlin: the next week.
      const sunday = [counted('2027-01-10T22:00:00Z', '2027-01-10T22:30:00Z')];
      expect(refusal(q, sunday, '2027-01-10T23:30:00Z', '2027-01-11T00:00:00Z')).to.equal(null);
      expect(refusal(q, sunday, '2027-01-04T09:00:00Z', '2027-01-04T10:00:00Z')).to.equal(quotaId);
    });
  });

  describe('matchers', () => {
    const other = resource({}, { id: '44444444-4444-4444-8444-444444444444', resourceType: 'device', groupId: 'g-2' });
    const grouped = resource({}, { groupId: 'g-1' });
    const onOther = [counted('2027-01-05T08:00:00Z', '2027-01-05T11:00:00Z', other)];

    it('a quota without matchers covers every resource, and bookings on all of them count', () => {
      expect(refusal(quota(), onOther, '2027-01-05T12:00:00Z', '2027-01-05T12:30:00Z')).to.equal(quotaId);
    });

    it('resourceType, groupId and resourceIds must all match, for the new booking and for the counted ones', () => {
      const byType = quota({ resourceType: 'zone' });
      expect(refusal(byType, onOther, '2027-01-05T12:00:00Z', '2027-01-05T14:00:00Z')).to.equal(null);
      expect(refusal(byType, onOther, '2027-01-05T12:00:00Z', '2027-01-05T16:00:00Z', other)).to.equal(null);
      const both = quota({ resourceType: 'zone', groupId: 'g-1' });
      expect(refusal(both, [], '2027-01-05T12:00:00Z', '2027-01-05T16:00:00Z', room)).to.equal(null);
      expect(refusal(both, [], '2027-01-05T12:00:00Z', '2027-01-05T16:00:00Z', grouped)).to.equal(quotaId);
      const named = quota({ resourceIds: [other.id] });
      expect(refusal(named, onOther, '2027-01-05T12:00:00Z', '2027-01-05T12:30:00Z', room)).to.equal(null);
      expect(refusal(named, onOther, '2027-01-05T12:00:00Z', '2027-01-05T12:30:00Z', other)).to.equal(quotaId);
    });

    it('answers the first quota exceeded among several', () => {
      const loose = quota({ id: 'loose', limit: 10 });
      const tight = quota({ id: 'tight', unit: 'bookings', limit: 1 });
      const usages = usagesAt([loose, tight], onOther, '2027-01-05T12:00:00Z');
      expect(quotaRefusal(usages, room, at('2027-01-05T12:00:00Z'), at('2027-01-05T13:00:00Z'))?.id).to.equal('tight');
    });
  });
});

describe('quotas in the booking decisions', () => {
  const command = (extra: Partial<CreateBooking> = {}): CreateBooking => ({
    id: 'aaaaaaaa-0000-4000-8000-000000000001',
    title: 'Desk',
    startTime: at('2027-01-05T09:00:00Z'),
    endTime: at('2027-01-05T11:00:00Z'),
    ...extra,
  });
  const usedTwoHours = usagesAt([quota()], [counted('2027-01-05T06:00:00Z', '2027-01-05T08:00:00Z')], '2027-01-05T09:00:00Z');
  const state = (extra: Partial<CreateBookingState> = {}): CreateBookingState => ({
    resource: resource(),
    overlapping: [],
    activeBookingsOfBooker: 0,
    quotas: usedTwoHours,
    blackouts: [],
    ...extra,
  });

  it('a create past the quota → 422 policy quota with quotaId', () => {
    given(state()).when((s) => decideCreateBooking(command(), s, alice, now)).thenThrows('policy_violation', { policy: 'quota', quotaId });
    expect(decideCreateBooking(command({ endTime: at('2027-01-05T10:00:00Z') }), state(), alice, now).type).to.equal('BookingCreated');
  });

  it('comes after maxBookingsPerUser and before conflicts', () => {
    given(state({ resource: resource({ maxBookingsPerUser: 1 }), activeBookingsOfBooker: 1, blackouts: [] }))
      .when((s) => decideCreateBooking(command(), s, alice, now))
      .thenThrows('policy_violation', { policy: 'maxBookingsPerUser' });
    const inTheWay = booking({ startTime: '2027-01-05T09:30:00Z', endTime: '2027-01-05T10:30:00Z', bookerProfileId: 'bob' });
    given(state({ overlapping: [inTheWay] })).when((s) => decideCreateBooking(command(), s, alice, now)).thenThrows('policy_violation', { policy: 'quota' });
  });

  it('a reschedule counts without its own old times (the usage was read without them)', () => {
    const mine = booking({ startTime: '2027-01-05T06:00:00Z', endTime: '2027-01-05T08:00:00Z' });
    const usageWithoutIt = usagesAt([quota()], [], '2027-01-05T09:00:00Z');
    const moved = decideRescheduleBooking(
      { startTime: at('2027-01-05T09:00:00Z'), endTime: at('2027-01-05T12:00:00Z') },
      { booking: mine, resource: resource(), overlapping: [], quotas: usageWithoutIt, blackouts: [] },
      alice,
      now,
    );
    expect(moved[0]!.data.booking.startTime).to.equal('2027-01-05T09:00:00Z');
    given({ booking: mine, resource: resource(), overlapping: [], quotas: usedTwoHours, blackouts: [] })
      .when((s) => decideRescheduleBooking({ startTime: at('2027-01-05T09:00:00Z'), endTime: at('2027-01-05T12:00:00Z') }, s, alice, now))
      .thenThrows('policy_violation', { policy: 'quota', quotaId });
  });

  describe('series', () => {
    const series = (rule: string, extra: Partial<CreateSeries> = {}): CreateSeries => {
      let n = 0;
      return {
        parentId: 'bbbbbbbb-0000-4000-8000-000000000000',
        newId: () => `bbbbbbbb-0000-4000-8000-${String(++n).padStart(12, '0')}`,
        title: 'Stand-up',
        startTime: at('2027-01-05T09:00:00Z'),
        endTime: at('2027-01-05T10:00:00Z'),
        recurrenceRule: rule,
        timeZone: 'UTC',
        ...extra,
      };
    };
    const seriesState = (q: Quota, bookings: CountedBooking[] = []) => ({
      resource: resource(),
      overlapping: [],
      activeBookingsOfBooker: 0,
      blackouts: [],
      quotaLedger: { quotas: [q], counted: bookings },
    });

    it('occurrences in one period add up: three daily hours fit a weekly limit of 3, four do not', () => {
      const weekly = quota({ per: 'week', limit: 3 });
      expect(decideCreateSeries(series('FREQ=DAILY;COUNT=3'), seriesState(weekly), alice, now)).to.have.length(4);
      given(seriesState(weekly))
        .when((s) => decideCreateSeries(series('FREQ=DAILY;COUNT=4'), s, alice, now))
        .thenThrows('policy_violation', { policy: 'quota', quotaId });
    });

    it('each period counts on its own, with the bookings already in it', () => {
      const weekly = quota({ per: 'week', limit: 2, unit: 'bookings' });
      // Tuesdays 2027-01-05, -12, -19: one each week, fine; a booking already in the second week fills it.
      expect(decideCreateSeries(series('FREQ=WEEKLY;COUNT=3'), seriesState(weekly), alice, now)).to.have.length(4);
      const error = given(seriesState(weekly, [counted('2027-01-13T09:00:00Z', '2027-01-13T10:00:00Z'), counted('2027-01-14T09:00:00Z', '2027-01-14T10:00:00Z')]))
        .when((s) => decideCreateSeries(series('FREQ=WEEKLY;COUNT=3'), s, alice, now))
        .thenThrows('policy_violation', { policy: 'quota', quotaId });
      expect(error.message).to.contain('2027-01-12T09:00:00Z');
    });

    it('a quota of other resources leaves the series alone', () => {
      const elsewhere = quota({ resourceIds: ['55555555-5555-4555-8555-555555555555'], limit: 1 });
      const state = { resource: resource(), overlapping: [], activeBookingsOfBooker: 0, quotaLedger: { quotas: [elsewhere], counted: [] }, blackouts: [] };
      expect(occurrencesRefusal({}, [{ start: at('2027-01-05T09:00:00Z'), end: at('2027-01-05T12:00:00Z') }], state, alice, now)).to.equal(null);
    });
  });
});
