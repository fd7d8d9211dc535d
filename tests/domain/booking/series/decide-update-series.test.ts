import { expect } from 'chai';
import type { Booking } from '../../../../src/domain/booking/booking.js';
import { decideUpdateSeries, seriesChangedReason, type UpdateSeries, type UpdateSeriesState } from '../../../../src/domain/booking/series/decide-update-series.js';
import { admin, alice, at, bob, booking, guest, now, resource } from '../booking-fixtures.js';
import { given } from '../decider-spec.js';
import { idSource, parentId, storedSeries } from './series-fixtures.js';
import type { CountedBooking } from '../../../../src/domain/quota/quota-usage.js';
import { counted, quota, quotaId } from '../../quota/quota-fixtures.js';

const change = (extra: Partial<UpdateSeries> = {}): UpdateSeries => ({ newId: idSource('bbbbbbbb'), ...extra });

/** Five Mondays from 2027-01-11; the third was moved on its own to Wednesday and detached. */
function seriesWithException(parentExtra: Partial<Booking> = {}) {
  const { parent, occurrences } = storedSeries(5, parentExtra);
  const exception = { ...occurrences[2]!, recurrenceParentId: null, exceptionOf: parentId, startTime: '2027-01-27T14:00:00Z', endTime: '2027-01-27T15:00:00Z' };
  const upcoming = occurrences.filter((_, i) => i !== 2);
  const state: UpdateSeriesState = { parent, resource: resource(), upcoming, overlapping: [...upcoming, exception], activeBookingsOfBooker: 5, blackouts: [] };
  return { parent, upcoming, exception, state };
}

type Event = ReturnType<typeof decideUpdateSeries>[number];
const summary = (events: Event[]) => events.map((e) => `${e.type} ${e.data.booking.id === parentId ? 'parent' : e.data.booking.id} ${e.data.booking.startTime}`);

describe('changing a series', () => {
  it('a new title renames the parent and every occurrence still governed by the series', () => {
    const { parent, upcoming, state } = seriesWithException();
    const events = decideUpdateSeries(change({ title: 'Team sync' }), state, alice, now);
    expect(events.map((e) => e.type)).to.deep.equal(Array(5).fill('BookingRescheduled'));
    expect(events.map((e) => e.data.booking.id)).to.deep.equal([parent.id, ...upcoming.map((b) => b.id)]);
    for (const event of events) expect(event.data.booking).to.include({ title: 'Team sync', updatedAt: '2027-01-04T08:00:00Z' });
    expect(events[1]!.data.booking).to.deep.equal({ ...upcoming[0]!, title: 'Team sync', updatedAt: '2027-01-04T08:00:00Z', sequence: 1 });
  });

  it('a new time moves the occurrences, keeping their ids, latest first; the exception’s date gets none', () => {
    const { upcoming, state } = seriesWithException();
    const events = decideUpdateSeries(change({ startTime: at('2027-01-11T10:00:00Z'), endTime: at('2027-01-11T11:00:00Z') }), state, alice, now);
    expect(summary(events)).to.deep.equal([
      'BookingRescheduled parent 2027-01-11T10:00:00Z',
      `BookingRescheduled ${upcoming[3]!.id} 2027-02-08T10:00:00Z`,
      `BookingRescheduled ${upcoming[2]!.id} 2027-02-01T10:00:00Z`,
      `BookingRescheduled ${upcoming[1]!.id} 2027-01-18T10:00:00Z`,
      `BookingRescheduled ${upcoming[0]!.id} 2027-01-11T10:00:00Z`,
    ]);
    const moved = events[1] as Extract<Event, { type: 'BookingRescheduled' }>;
    expect(moved.data).to.include({ previousStartTime: '2027-02-08T09:00:00Z', previousEndTime: '2027-02-08T09:30:00Z' });
    expect(moved.data.booking).to.include({ endTime: '2027-02-08T11:00:00Z', recurrenceParentId: parentId, status: 'confirmed' });
  });

  it('moves earlier ones earliest first, so that no two slots overlap on the way', () => {
    const { upcoming, state } = seriesWithException();
    const events = decideUpdateSeries(change({ startTime: at('2027-01-11T08:45:00Z'), endTime: at('2027-01-11T09:15:00Z') }), state, alice, now);
    expect(events.slice(1).map((e) => e.data.booking.id)).to.deep.equal(upcoming.map((b) => b.id));
  });

  it('keeps the duration when only startTime is sent', () => {
    const { state } = seriesWithException();
    const [parent] = decideUpdateSeries(change({ startTime: at('2027-01-11T12:00:00Z') }), state, alice, now);
    expect(parent!.data.booking).to.include({ startTime: '2027-01-11T12:00:00Z', endTime: '2027-01-11T12:30:00Z' });
  });

  it('follows a new rule: dates leaving it are cancelled ("series changed"), new dates are created, left-out dates stay out', () => {
    const { upcoming, state } = seriesWithException();
    const events = decideUpdateSeries(change({ recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,TU;COUNT=6' }), state, admin, now);
    expect(summary(events)).to.deep.equal([
      'BookingRescheduled parent 2027-01-11T09:00:00Z',
      `BookingCancelled ${upcoming[2]!.id} 2027-02-01T09:00:00Z`,
      `BookingCancelled ${upcoming[3]!.id} 2027-02-08T09:00:00Z`,
      'BookingCreated bbbbbbbb-0000-4000-8000-000000000001 2027-01-12T09:00:00Z',
      'BookingCreated bbbbbbbb-0000-4000-8000-000000000002 2027-01-19T09:00:00Z',
      'BookingCreated bbbbbbbb-0000-4000-8000-000000000003 2027-01-26T09:00:00Z',
    ]);
    expect(events[1]!.data.booking).to.include({ status: 'cancelled', reason: seriesChangedReason, cancelledBy: 'admin' });
    // New occurrences belong to the series' booker, whoever changes it.
    expect(events[3]!.data.booking).to.include({ bookerProfileId: 'alice', recurrenceParentId: parentId, title: 'Stand-up', status: 'confirmed' });
  });

  it('leaves an occurrence cancelled on its own cancelled, and a checked-in one as it is', () => {
    const { parent } = storedSeries(3, { startTime: '2027-01-04T08:10:00Z', endTime: '2027-01-04T08:40:00Z' });
    const occurrence = (day: string, extra: Partial<Booking> = {}) =>
      booking({ startTime: `${day}T08:10:00Z`, endTime: `${day}T08:40:00Z`, title: 'Stand-up', recurrenceParentId: parentId, ...extra });
    const checkedIn = occurrence('2027-01-04', { checkedInAt: '2027-01-04T07:56:00Z' });
    const cancelledOne = occurrence('2027-01-11', { status: 'cancelled' });
    const last = occurrence('2027-01-18');
    const state: UpdateSeriesState = { parent, resource: resource(), upcoming: [checkedIn, cancelledOne, last], overlapping: [checkedIn, last], activeBookingsOfBooker: 2, blackouts: [] };
    const events = decideUpdateSeries(change({ title: 'Renamed' }), state, alice, now);
    expect(summary(events)).to.deep.equal(['BookingRescheduled parent 2027-01-04T08:10:00Z', `BookingRescheduled ${last.id} 2027-01-18T08:10:00Z`]);
  });

  it('touches nothing that started already: a running series keeps its past', () => {
    // Mondays from 2026-12-21: two are past, four ahead.
    const { parent, occurrences } = storedSeries(3, { startTime: '2026-12-21T09:00:00Z', endTime: '2026-12-21T09:30:00Z', recurrenceRule: 'FREQ=WEEKLY;COUNT=6' });
    const upcoming = [booking({ startTime: '2027-01-04T09:00:00Z', endTime: '2027-01-04T09:30:00Z', recurrenceParentId: parentId }), ...occurrences];
    const state: UpdateSeriesState = { parent, resource: resource(), upcoming, overlapping: upcoming, activeBookingsOfBooker: 4, blackouts: [] };
    const events = decideUpdateSeries(change({ endTime: at('2026-12-21T10:00:00Z') }), state, alice, now);
    expect(summary(events)).to.deep.equal([
      'BookingRescheduled parent 2026-12-21T09:00:00Z',
      ...upcoming.map((b) => `BookingRescheduled ${b.id} ${b.startTime}`),
    ]);
    expect(events[1]!.data.booking.endTime).to.equal('2027-01-04T10:00:00Z');
  });

  it('expands a rule without COUNT or UNTIL anew up to the current horizon', () => {
    const { parent, occurrences } = storedSeries(2, { recurrenceRule: 'FREQ=WEEKLY' });
    const state: UpdateSeriesState = { parent, resource: resource({ maxAdvanceDays: 30 }), upcoming: occurrences, overlapping: occurrences, activeBookingsOfBooker: 2, blackouts: [] };
    const events = decideUpdateSeries(change({ title: 'Weekly' }), state, alice, now);
    expect(summary(events).slice(3)).to.deep.equal([
      'BookingCreated bbbbbbbb-0000-4000-8000-000000000001 2027-01-25T09:00:00Z',
      'BookingCreated bbbbbbbb-0000-4000-8000-000000000002 2027-02-01T09:00:00Z',
    ]);
  });

  it('records nothing when nothing changes', () => {
    const { state } = seriesWithException();
    given(state).when((s) => decideUpdateSeries(change({ title: 'Stand-up', recurrenceRule: 'FREQ=WEEKLY;COUNT=5' }), s, alice, now)).thenNothing();
  });

  it('sends moved occurrences back to pending where the resource wants approval', () => {
    const { state } = seriesWithException();
    const events = decideUpdateSeries(change({ startTime: at('2027-01-11T10:00:00Z') }), { ...state, resource: resource({ autoConfirm: false }) }, alice, now);
    expect(events.slice(1).map((e) => e.data.booking.status)).to.deep.equal(['pending', 'pending', 'pending', 'pending']);
  });
});

describe('changing a series: all or nothing', () => {
  it('ignores the series’ own slots but lists another booking in the way (409)', () => {
    const { state } = seriesWithException();
    const inTheWay = booking({ bookerProfileId: 'bob', startTime: '2027-02-01T10:30:00Z', endTime: '2027-02-01T11:00:00Z' });
    given({ ...state, overlapping: [...state.overlapping, inTheWay] })
      .when((s) => decideUpdateSeries(change({ startTime: at('2027-01-11T09:15:00Z'), endTime: at('2027-01-11T11:00:00Z') }), s, alice, now))
      .thenThrows('booking_conflict', { conflicts: [{ bookingId: inTheWay.id, startTime: '2027-02-01T10:30:00Z', endTime: '2027-02-01T11:00:00Z' }] });
  });

  it('a detached exception is in the way like any other booking', () => {
    const { state, exception } = seriesWithException();
    given(state)
      .when((s) => decideUpdateSeries(change({ recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=8', startTime: at('2027-01-11T14:30:00Z'), endTime: at('2027-01-11T15:00:00Z') }), s, alice, now))
      .thenThrows('booking_conflict', { conflicts: [{ bookingId: exception.id, startTime: exception.startTime, endTime: exception.endTime }] });
  });

  it('applies the policies to changed occurrences: maxAdvanceDays, availability, maxBookingsPerUser', () => {
    const { state } = seriesWithException();
    given({ ...state, resource: resource({ maxAdvanceDays: 30 }) })
      .when((s) => decideUpdateSeries(change({ startTime: at('2027-01-11T10:00:00Z') }), s, alice, now))
      .thenThrows('policy_violation', { policy: 'maxAdvanceDays' });
    given({ ...state, resource: resource({}, { availability: { timeZone: 'UTC', hours: { monday: [{ start: '08:00', end: '10:00' }] } } }) })
      .when((s) => decideUpdateSeries(change({ startTime: at('2027-01-11T09:45:00Z') }), s, alice, now))
      .thenThrows('policy_violation', { policy: 'availability' });
    given({ ...state, resource: resource({ maxBookingsPerUser: 6 }) })
      .when((s) => decideUpdateSeries(change({ recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,TU;COUNT=8' }), s, alice, now))
      .thenThrows('policy_violation', { policy: 'maxBookingsPerUser' });
    given({ ...state, resource: resource({ allowRecurring: false }) }).when((s) => decideUpdateSeries(change({ title: 'x' }), s, alice, now)).thenThrows('policy_violation', { policy: 'allowRecurring' });
  });

  it('refuses bad input (400): times, rule, zone, a start before the series began', () => {
    const { state } = seriesWithException();
    const refuse = (extra: Partial<UpdateSeries>) => given(state).when((s) => decideUpdateSeries(change(extra), s, alice, now)).thenThrows('invalid_request');
    refuse({ startTime: at('2027-01-11T10:00:00Z'), endTime: at('2027-01-11T10:00:00Z') });
    refuse({ endTime: at('2027-01-11T08:00:00Z') });
    refuse({ recurrenceRule: 'FREQ=HOURLY' });
    refuse({ recurrenceRule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=3' });
    refuse({ timeZone: 'Atlantis/Capital' });
    refuse({ startTime: at('2027-01-01T09:00:00Z') });
  });

  it('answers 403 to a guest, 404 for another user’s series or a non-parent, 409 for a cancelled series', () => {
    const { state, upcoming } = seriesWithException();
    given(state).when((s) => decideUpdateSeries(change({ title: 'x' }), s, guest, now)).thenThrows('forbidden');
    given(state).when((s) => decideUpdateSeries(change({ title: 'x' }), s, bob, now)).thenThrows('not_found');
    given({ ...state, parent: upcoming[0]! }).when((s) => decideUpdateSeries(change({ title: 'x' }), s, alice, now)).thenThrows('not_found');
    given({ ...state, parent: null }).when((s) => decideUpdateSeries(change({ title: 'x' }), s, admin, now)).thenThrows('not_found');
    given<UpdateSeriesState>({ ...state, parent: { ...state.parent!, status: 'cancelled' } }).when((s) => decideUpdateSeries(change({ title: 'x' }), s, alice, now)).thenThrows('invalid_transition');
  });

  describe('quotas', () => {
    // One hour a week: the series' half-hour Mondays fit; so does each one moved to a full hour.
    const weekly = quota({ per: 'week', limit: 1 });
    const countedOf = (b: Booking): CountedBooking => ({ id: b.id, resource: resource(), startTime: at(b.startTime), endTime: at(b.endTime) });
    const oneHour = change({ startTime: at('2027-01-11T09:00:00Z'), endTime: at('2027-01-11T10:00:00Z') });

    it('the occurrences it moves do not count against themselves', () => {
      const { state, upcoming } = seriesWithException();
      const events = decideUpdateSeries(oneHour, { ...state, quotaLedger: { quotas: [weekly], counted: upcoming.map(countedOf) } }, alice, now);
      expect(events).to.have.length(5);
    });

    it('refuses with the quota a change that takes a week of the booker past it, with what else the booker holds', () => {
      const { state, upcoming } = seriesWithException();
      const elsewhere = counted('2027-01-19T12:00:00Z', '2027-01-19T12:30:00Z');
      const error = given<UpdateSeriesState>({ ...state, quotaLedger: { quotas: [weekly], counted: [...upcoming.map(countedOf), elsewhere] } })
        .when((s) => decideUpdateSeries(oneHour, s, alice, now))
        .thenThrows('policy_violation', { policy: 'quota', quotaId });
      expect(error.message).to.contain('2027-01-18T09:00:00Z');
    });

    it('an occurrence left where it is still counts: a new one beside it in the week goes past the limit', () => {
      const { state, upcoming } = seriesWithException();
      const ledger = (limit: number) => ({ quotas: [quota({ per: 'week', limit })], counted: upcoming.map(countedOf) });
      const twiceAWeek = change({ recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,TU;COUNT=6' });
      expect(decideUpdateSeries(twiceAWeek, { ...state, quotaLedger: ledger(1) }, alice, now).filter((e) => e.type === 'BookingCreated')).to.have.length(3);
      given<UpdateSeriesState>({ ...state, quotaLedger: ledger(0.75) })
        .when((s) => decideUpdateSeries(twiceAWeek, s, alice, now))
        .thenThrows('policy_violation', { policy: 'quota', quotaId });
    });
  });
});
