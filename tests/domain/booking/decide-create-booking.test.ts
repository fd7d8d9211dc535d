import { expect } from 'chai';
import { decideCreateBooking, type CreateBooking, type CreateBookingState } from '../../../src/domain/booking/decide-create-booking.js';
import { actor, admin, alice, at, booking, guest, now, resource, resourceUuid, workspace } from './booking-fixtures.js';
import { given } from './decider-spec.js';

const command = (extra: Partial<CreateBooking> = {}): CreateBooking => ({
  id: 'aaaaaaaa-0000-4000-8000-000000000001',
  title: 'Weekly sync',
  startTime: at('2027-01-05T09:00:00Z'),
  endTime: at('2027-01-05T10:00:00Z'),
  ...extra,
});
const state = (extra: Partial<CreateBookingState> = {}): CreateBookingState => ({ resource: resource(), overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [], ...extra });

describe('deciding a new booking', () => {
  it('confirms directly when the policy auto-confirms, recording the booker from the token', () => {
    given(state())
      .when((s) => decideCreateBooking(command(), s, alice, now))
      .then({
        type: 'BookingCreated',
        data: {
          by: 'alice',
          at: '2027-01-04T08:00:00Z',
          booking: {
            id: 'aaaaaaaa-0000-4000-8000-000000000001',
            bookableResourceId: resourceUuid,
            workspace,
            resourceType: 'zone',
            resourceId: 'zone-42',
            bookerProfileId: 'alice',
            bookerEmail: 'alice@example.com',
            createdBy: 'alice',
            title: 'Weekly sync',
            startTime: '2027-01-05T09:00:00Z',
            endTime: '2027-01-05T10:00:00Z',
            bufferBeforeMinutes: 0,
            bufferAfterMinutes: 0,
            units: 1,
            pooled: false,
            status: 'confirmed',
            isSeriesParent: false,
            recurrenceRule: null,
            recurrenceTimeZone: null,
            recurrenceParentId: null,
            exceptionOf: null,
            bundleId: null,
            calendarUid: null,
            confirmedBy: null,
            confirmedAt: null,
            cancelledBy: null,
            cancelledAt: null,
            onBehalfOf: null,
            reason: null,
            checkedInAt: null,
            checkedOutAt: null,
            createdAt: '2027-01-04T08:00:00Z',
            updatedAt: '2027-01-04T08:00:00Z',
            sequence: 0,
          },
        },
      });
  });

  it('stays pending when the resource wants approval', () => {
    const event = decideCreateBooking(command(), state({ resource: resource({ autoConfirm: false }) }), alice, now);
    expect(event.data.booking.status).to.equal('pending');
  });

  it('takes the e-mail given over the token’s', () => {
    const event = decideCreateBooking(command({ bookerEmail: 'desk@example.com' }), state(), alice, now);
    expect(event.data.booking.bookerEmail).to.equal('desk@example.com');
  });

  it('stores times in UTC whatever offset they came with', () => {
    const event = decideCreateBooking(command({ startTime: at('2027-01-05T10:00:00+01:00'), endTime: at('2027-01-05T11:30:00+01:00') }), state(), alice, now);
    expect(event.data.booking).to.include({ startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:30:00Z' });
  });
});

describe('bad times of a new booking', () => {
  it('refuses an end before or at the start (400)', () => {
    given(state()).when((s) => decideCreateBooking(command({ endTime: at('2027-01-05T09:00:00Z') }), s, alice, now)).thenThrows('invalid_request');
    given(state()).when((s) => decideCreateBooking(command({ endTime: at('2027-01-05T08:00:00Z') }), s, alice, now)).thenThrows('invalid_request');
  });

  it('refuses a start in the past (400), before any permission or policy question', () => {
    const error = given(state({ resource: null }))
      .when((s) => decideCreateBooking(command({ startTime: at('2027-01-04T07:59:00Z') }), s, guest, now))
      .thenThrows('invalid_request');
    expect(error.message).to.equal('startTime is in the past');
  });
});

describe('who may book', () => {
  it('refuses guests (403) before looking for the resource', () => {
    given(state({ resource: null })).when((s) => decideCreateBooking(command(), s, guest, now)).thenThrows('forbidden');
  });

  it('lets LV1 to LV4 book', () => {
    for (const level of [1, 2, 3, 4] as const) {
      expect(decideCreateBooking(command(), state(), actor(level), now).type).to.equal('BookingCreated');
    }
  });

  it('answers 404 for a resource that is not registered or was removed', () => {
    given(state({ resource: null })).when((s) => decideCreateBooking(command(), s, alice, now)).thenThrows('not_found');
    given(state({ resource: resource({}, { removed: true }) })).when((s) => decideCreateBooking(command(), s, alice, now)).thenThrows('not_found');
  });
});

describe('booking policies', () => {
  const violates = (policy: string, s: CreateBookingState, c = command()) =>
    given(s).when((x) => decideCreateBooking(c, x, alice, now)).thenThrows('policy_violation', { policy });

  it('isActive: an inactive resource takes no bookings', () => {
    violates('isActive', state({ resource: resource({}, { isActive: false }) }));
  });

  it('availability: only inside the operating hours of the resource’s zone', () => {
    const hours = resource({}, { availability: { timeZone: 'Europe/Berlin', hours: { tuesday: [{ start: '08:00', end: '18:00' }] } } });
    // 09:00Z is 10:00 in Berlin on Tuesday 2027-01-05: inside.
    expect(decideCreateBooking(command(), state({ resource: hours }), alice, now).type).to.equal('BookingCreated');
    violates('availability', state({ resource: hours }), command({ startTime: at('2027-01-05T06:30:00Z'), endTime: at('2027-01-05T07:30:00Z') }));
    violates('availability', state({ resource: hours }), command({ startTime: at('2027-01-05T16:30:00Z'), endTime: at('2027-01-05T17:30:00Z') }));
    violates('availability', state({ resource: hours }), command({ startTime: at('2027-01-06T09:00:00Z'), endTime: at('2027-01-06T10:00:00Z') }));
  });

  it('maxDurationMinutes: no longer than the maximum, exactly the maximum is fine', () => {
    const s = state({ resource: resource({ maxDurationMinutes: 60 }) });
    expect(decideCreateBooking(command(), s, alice, now).type).to.equal('BookingCreated');
    violates('maxDurationMinutes', s, command({ endTime: at('2027-01-05T10:01:00Z') }));
  });

  it('a booking of years is judged on its first eight days of operating hours, at once', () => {
    const started = Date.now();
    const hours = resource({}, { availability: { timeZone: 'Europe/Berlin', hours: { tuesday: [{ start: '08:00', end: '18:00' }] } } });
    violates('availability', state({ resource: hours }), command({ endTime: at('9999-12-31T00:00:00Z') }));
    const allWeek = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
    violates('maxDurationMinutes', state({ resource: resource({}, { availability: { timeZone: 'Europe/Berlin', hours: allWeek } }) }), command({ endTime: at('9999-12-31T00:00:00Z') }));
    // Walking the years day by day would take minutes; the bound is loose for a loaded machine.
    expect(Date.now() - started).to.be.below(2_000);
  });

  it('maxAdvanceDays: the start at most that many days ahead', () => {
    const s = state({ resource: resource({ maxAdvanceDays: 30 }) });
    violates('maxAdvanceDays', s, command({ startTime: at('2027-02-03T08:01:00Z'), endTime: at('2027-02-03T09:00:00Z') }));
    expect(decideCreateBooking(command({ startTime: at('2027-02-03T08:00:00Z'), endTime: at('2027-02-03T09:00:00Z') }), s, alice, now).type).to.equal('BookingCreated');
  });

  it('minNoticeMinutes: the start at least that many minutes ahead', () => {
    const s = state({ resource: resource({ minNoticeMinutes: 120 }) });
    violates('minNoticeMinutes', s, command({ startTime: at('2027-01-04T09:59:00Z'), endTime: at('2027-01-04T11:00:00Z') }));
    expect(decideCreateBooking(command({ startTime: at('2027-01-04T10:00:00Z'), endTime: at('2027-01-04T11:00:00Z') }), s, alice, now).type).to.equal('BookingCreated');
  });

  it('maxBookingsPerUser: active bookings of the booker on the resource', () => {
    violates('maxBookingsPerUser', state({ resource: resource({ maxBookingsPerUser: 2 }), activeBookingsOfBooker: 2 }));
    expect(decideCreateBooking(command(), state({ resource: resource({ maxBookingsPerUser: 2 }), activeBookingsOfBooker: 1 }), alice, now).type).to.equal('BookingCreated');
  });

  it('a policy refusal comes before a conflict (422 before 409)', () => {
    violates('maxDurationMinutes', state({ resource: resource({ maxDurationMinutes: 30 }), overlapping: [booking()] }));
  });
});

describe('conflicts of a new booking', () => {
  it('lists every active booking in the way, in UTC, earliest first', () => {
    const late = booking({ startTime: '2027-01-05T09:30:00Z', endTime: '2027-01-05T11:00:00Z', status: 'pending' });
    const early = booking({ startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T09:15:00Z' });
    given(state({ overlapping: [late, early] }))
      .when((s) => decideCreateBooking(command(), s, admin, now))
      .thenThrows('booking_conflict', {
        conflicts: [
          { bookingId: early.id, startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T09:15:00Z' },
          { bookingId: late.id, startTime: '2027-01-05T09:30:00Z', endTime: '2027-01-05T11:00:00Z' },
        ],
      });
  });

  it('back-to-back bookings do not conflict', () => {
    const before = booking({ startTime: '2027-01-05T08:00:00Z', endTime: '2027-01-05T09:00:00Z' });
    const after = booking({ startTime: '2027-01-05T10:00:00Z', endTime: '2027-01-05T11:00:00Z' });
    expect(decideCreateBooking(command(), state({ overlapping: [before, after] }), alice, now).type).to.equal('BookingCreated');
  });

  it('cancelled, completed, no-show bookings and series parents hold no slot', () => {
    const overlapping = [
      booking({ status: 'cancelled' }),
      booking({ status: 'completed' }),
      booking({ status: 'no_show' }),
      booking({ isSeriesParent: true, recurrenceRule: 'FREQ=DAILY;COUNT=3' }),
    ];
    expect(decideCreateBooking(command(), state({ overlapping }), alice, now).type).to.equal('BookingCreated');
  });
});
