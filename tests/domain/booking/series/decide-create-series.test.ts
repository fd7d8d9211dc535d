import { expect } from 'chai';
import type { BookingCreated } from '../../../../src/domain/booking/booking-events.js';
import { decideCreateSeries, type CreateSeries, type CreateSeriesState } from '../../../../src/domain/booking/series/decide-create-series.js';
import { actor, admin, alice, at, booking, guest, now, resource, resourceUuid, workspace } from '../booking-fixtures.js';
import { given } from '../decider-spec.js';
import { idSource, parentId } from './series-fixtures.js';

const command = (extra: Partial<CreateSeries> = {}): CreateSeries => ({
  parentId,
  newId: idSource(),
  title: 'Stand-up',
  startTime: at('2027-01-11T09:00:00Z'),
  endTime: at('2027-01-11T09:30:00Z'),
  recurrenceRule: 'FREQ=WEEKLY;COUNT=3',
  ...extra,
});
const state = (extra: Partial<CreateSeriesState> = {}): CreateSeriesState => ({ resource: resource(), overlapping: [], activeBookingsOfBooker: 0, blackouts: [], ...extra });
const starts = (events: { data: { booking: { startTime: string } } }[]) => events.map((e) => e.data.booking.startTime);

describe('deciding a new series', () => {
  it('creates the parent, holding the rule and the first times, then each occurrence linked to it', () => {
    const base = {
      bookableResourceId: resourceUuid,
      workspace,
      resourceType: 'zone' as const,
      resourceId: 'zone-42',
      bookerProfileId: 'alice',
      bookerEmail: 'alice@example.com',
      createdBy: 'alice',
      title: 'Stand-up',
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      units: 1,
      pooled: false,
      status: 'confirmed' as const,
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
    };
    const occurrence = (n: number, day: string): BookingCreated => ({
      type: 'BookingCreated',
      data: {
        by: 'alice',
        at: '2027-01-04T08:00:00Z',
        booking: {
          ...base,
          id: `aaaaaaaa-0000-4000-8000-00000000000${n}`,
          startTime: `${day}T09:00:00Z`,
          endTime: `${day}T09:30:00Z`,
          isSeriesParent: false,
          recurrenceRule: null,
          recurrenceTimeZone: null,
          recurrenceParentId: parentId,
        },
      },
    });
    given(state())
      .when((s) => decideCreateSeries(command({ recurrenceRule: 'FREQ=WEEKLY;COUNT=2' }), s, alice, now))
      .then([
        {
          type: 'BookingCreated',
          data: {
            by: 'alice',
            at: '2027-01-04T08:00:00Z',
            booking: {
              ...base,
              id: parentId,
              startTime: '2027-01-11T09:00:00Z',
              endTime: '2027-01-11T09:30:00Z',
              isSeriesParent: true,
              recurrenceRule: 'FREQ=WEEKLY;COUNT=2',
              recurrenceTimeZone: 'UTC',
              recurrenceParentId: null,
            },
          },
        },
        occurrence(1, '2027-01-11'),
        occurrence(2, '2027-01-18'),
      ]);
  });

  it('keeps the local time across a DST change, in the zone asked for', () => {
    const events = decideCreateSeries(
      command({ startTime: at('2027-03-15T09:00:00+01:00'), endTime: at('2027-03-15T10:00:00+01:00'), recurrenceRule: 'FREQ=WEEKLY;COUNT=4', timeZone: 'Europe/Berlin' }),
      state(),
      alice,
      now,
    );
    expect(starts(events.slice(1))).to.deep.equal(['2027-03-15T08:00:00Z', '2027-03-22T08:00:00Z', '2027-03-29T07:00:00Z', '2027-04-05T07:00:00Z']);
    expect(events[0]!.data.booking.recurrenceTimeZone).to.equal('Europe/Berlin');
  });

  it('expands in the resource’s availability zone when the request names none', () => {
    const berlin = resource({}, { availability: { timeZone: 'Europe/Berlin', hours: { monday: [{ start: '00:00', end: '24:00' }] } } });
    const events = decideCreateSeries(command({ startTime: at('2027-03-22T08:00:00Z'), endTime: at('2027-03-22T09:00:00Z') }), state({ resource: berlin }), alice, now);
    expect(starts(events.slice(1))).to.deep.equal(['2027-03-22T08:00:00Z', '2027-03-29T07:00:00Z', '2027-04-05T07:00:00Z']);
  });

  it('books every occurrence pending where the resource wants approval', () => {
    const events = decideCreateSeries(command(), state({ resource: resource({ autoConfirm: false }) }), alice, now);
    expect(events.map((e) => e.data.booking.status)).to.deep.equal(['pending', 'pending', 'pending', 'pending']);
  });

  it('leaves out the exdates', () => {
    const events = decideCreateSeries(command({ exdates: [at('2027-01-18T09:00:00Z')] }), state(), alice, now);
    expect(starts(events.slice(1))).to.deep.equal(['2027-01-11T09:00:00Z', '2027-01-25T09:00:00Z']);
  });
});

describe('refusing a series as a whole', () => {
  it('answers bad times, rules and zones first (400), even for a guest on an unknown resource', () => {
    const refuse = (extra: Partial<CreateSeries>) => given(state({ resource: null })).when((s) => decideCreateSeries(command(extra), s, guest, now)).thenThrows('invalid_request');
    refuse({ endTime: at('2027-01-11T09:00:00Z') });
    refuse({ startTime: at('2027-01-03T09:00:00Z') });
    refuse({ recurrenceRule: 'FREQ=SECONDLY' });
    refuse({ recurrenceRule: 'FREQ=WEEKLY;BYWEEKNO=3' });
    refuse({ timeZone: 'Mars/Olympus' });
  });

  it('then the level (403), then the resource (404)', () => {
    given(state({ resource: null })).when((s) => decideCreateSeries(command(), s, guest, now)).thenThrows('forbidden');
    given(state({ resource: null })).when((s) => decideCreateSeries(command(), s, alice, now)).thenThrows('not_found');
    given(state({ resource: resource({}, { removed: true }) })).when((s) => decideCreateSeries(command(), s, alice, now)).thenThrows('not_found');
  });

  it('refuses a resource without allowRecurring (422), after the rule’s own 400s', () => {
    given(state({ resource: resource({ allowRecurring: false }) }))
      .when((s) => decideCreateSeries(command(), s, alice, now))
      .thenThrows('policy_violation', { policy: 'allowRecurring' });
    given(state({ resource: resource({ allowRecurring: false }) }))
      .when((s) => decideCreateSeries(command({ recurrenceRule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=3' }), s, alice, now))
      .thenThrows('invalid_request');
  });

  it('refuses a start that is not an occurrence of its own rule (400)', () => {
    const error = given(state()).when((s) => decideCreateSeries(command({ recurrenceRule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=3' }), s, alice, now)).thenThrows('invalid_request');
    expect(error.message).to.match(/does not fit startTime/);
  });

  it('refuses more than 500 occurrences (400), whatever the rule promises', () => {
    for (const recurrenceRule of ['FREQ=DAILY;COUNT=100000', 'FREQ=DAILY;COUNT=501', 'FREQ=DAILY;UNTIL=99991231T000000Z']) {
      const started = performance.now();
      given(state({ resource: resource({ maxAdvanceDays: 3650 }) }))
        .when((s) => decideCreateSeries(command({ recurrenceRule }), s, alice, now))
        .thenThrows('invalid_request');
      expect(performance.now() - started, recurrenceRule).to.be.below(500);
    }
  });

  it('refuses occurrences past maxAdvanceDays (422); a rule without an end stops at the horizon', () => {
    given(state({ resource: resource({ maxAdvanceDays: 20 }) }))
      .when((s) => decideCreateSeries(command(), s, alice, now))
      .thenThrows('policy_violation', { policy: 'maxAdvanceDays' });
    const events = decideCreateSeries(command({ recurrenceRule: 'FREQ=WEEKLY' }), state({ resource: resource({ maxAdvanceDays: 20 }) }), alice, now);
    expect(starts(events.slice(1))).to.deep.equal(['2027-01-11T09:00:00Z', '2027-01-18T09:00:00Z']);
  });

  it('refuses occurrences that overlap one another (400)', () => {
    given(state({ resource: resource({ maxDurationMinutes: 3000 }) }))
      .when((s) => decideCreateSeries(command({ endTime: at('2027-01-12T10:00:00Z'), recurrenceRule: 'FREQ=DAILY;COUNT=2' }), s, alice, now))
      .thenThrows('invalid_request');
  });
});

describe('checking every occurrence of a series', () => {
  it('refuses the series for one occurrence outside the operating hours, naming it', () => {
    const weekdays = resource({}, { availability: { timeZone: 'UTC', hours: { monday: [{ start: '08:00', end: '18:00' }], tuesday: [{ start: '08:00', end: '18:00' }] } } });
    const error = given(state({ resource: weekdays }))
      .when((s) => decideCreateSeries(command({ recurrenceRule: 'FREQ=DAILY;COUNT=3' }), s, alice, now))
      .thenThrows('policy_violation', { policy: 'availability' });
    expect(error.message).to.contain('2027-01-13T09:00:00Z');
  });

  it('refuses an inactive resource (422 isActive)', () => {
    given(state({ resource: resource({}, { isActive: false }) })).when((s) => decideCreateSeries(command(), s, alice, now)).thenThrows('policy_violation', { policy: 'isActive' });
  });

  it('counts the whole series against maxBookingsPerUser', () => {
    given(state({ resource: resource({ maxBookingsPerUser: 4 }), activeBookingsOfBooker: 2 }))
      .when((s) => decideCreateSeries(command(), s, alice, now))
      .thenThrows('policy_violation', { policy: 'maxBookingsPerUser' });
    expect(decideCreateSeries(command(), state({ resource: resource({ maxBookingsPerUser: 4 }), activeBookingsOfBooker: 1 }), alice, now)).to.have.length(4);
  });

  it('refuses the series for one conflicting occurrence, listing that booking (409)', () => {
    const inTheWay = booking({ startTime: '2027-01-18T09:15:00Z', endTime: '2027-01-18T10:00:00Z', bookerProfileId: 'bob' });
    given(state({ overlapping: [inTheWay] }))
      .when((s) => decideCreateSeries(command(), s, alice, now))
      .thenThrows('booking_conflict', { conflicts: [{ bookingId: inTheWay.id, startTime: '2027-01-18T09:15:00Z', endTime: '2027-01-18T10:00:00Z' }] });
  });

  it('lists every conflicting booking once, earliest first; inactive ones and series parents are no conflict', () => {
    const late = booking({ startTime: '2027-01-25T09:00:00Z', endTime: '2027-01-25T09:10:00Z' });
    const early = booking({ startTime: '2027-01-11T08:00:00Z', endTime: '2027-01-11T09:01:00Z' });
    const cancelledOne = booking({ startTime: '2027-01-18T09:00:00Z', endTime: '2027-01-18T09:30:00Z', status: 'cancelled' });
    const parent = booking({ startTime: '2027-01-18T09:00:00Z', endTime: '2027-01-18T09:30:00Z', isSeriesParent: true });
    const error = given(state({ overlapping: [late, cancelledOne, parent, early, late] }))
      .when((s) => decideCreateSeries(command(), s, admin, now))
      .thenThrows('booking_conflict');
    expect(error.details.conflicts!.map((c) => c.bookingId)).to.deep.equal([early.id, late.id]);
  });

  it('books for the token’s user, whoever else it is (LV1–LV4)', () => {
    const lv1 = actor(1, 'root', { workspace: null });
    expect(decideCreateSeries(command(), state(), lv1, now)[0]!.data.booking.bookerProfileId).to.equal('root');
  });
});
