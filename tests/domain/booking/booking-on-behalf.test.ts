import { expect } from 'chai';
import { decideCreateBooking, type CreateBooking, type CreateBookingState } from '../../../src/domain/booking/decide-create-booking.js';
import { decideCreateSeries, type CreateSeries } from '../../../src/domain/booking/series/decide-create-series.js';
import { decideUpdateSeries } from '../../../src/domain/booking/series/decide-update-series.js';
import { actor, admin, alice, at, guest, now, resource } from './booking-fixtures.js';
import { given } from './decider-spec.js';
import { idSource, parentId, storedSeries } from './series/series-fixtures.js';

const command = (extra: Partial<CreateBooking> = {}): CreateBooking => ({
  id: 'aaaaaaaa-0000-4000-8000-000000000001',
  title: 'Board meeting',
  startTime: at('2027-01-05T09:00:00Z'),
  endTime: at('2027-01-05T10:00:00Z'),
  ...extra,
});
const state = (extra: Partial<CreateBookingState> = {}): CreateBookingState => ({ resource: resource(), overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [], ...extra });
const groupAdmin = actor(3, 'assistant');

describe('booking on behalf (contract §17)', () => {
  it('LV1–LV3 book for the named user: the booking is theirs, createdBy is the actor', () => {
    for (const booker of [actor(1, 'root'), admin, groupAdmin]) {
      const { data } = decideCreateBooking(command({ bookerProfileId: 'ceo', bookerEmail: 'ceo@example.com' }), state(), booker, now);
      expect(data.booking).to.include({ bookerProfileId: 'ceo', bookerEmail: 'ceo@example.com', createdBy: booker.sub });
      expect(data.by).to.equal(booker.sub);
    }
  });

  it('never gives the booked user the actor’s email', () => {
    const { data } = decideCreateBooking(command({ bookerProfileId: 'ceo' }), state(), groupAdmin, now);
    expect(data.booking).to.include({ bookerProfileId: 'ceo', bookerEmail: null, createdBy: 'assistant' });
  });

  it('booking for oneself: createdBy equals bookerProfileId, named or not', () => {
    expect(decideCreateBooking(command(), state(), alice, now).data.booking).to.include({ bookerProfileId: 'alice', bookerEmail: 'alice@example.com', createdBy: 'alice' });
    expect(decideCreateBooking(command({ bookerProfileId: 'alice' }), state(), alice, now).data.booking).to.include({ bookerProfileId: 'alice', createdBy: 'alice' });
  });

  it('LV4 naming another user → 403, before the resource is looked at (404); LV5 stays 403', () => {
    given(state({ resource: null })).when((s) => decideCreateBooking(command({ bookerProfileId: 'bob' }), s, alice, now)).thenThrows('forbidden');
    given(state()).when((s) => decideCreateBooking(command({ bookerProfileId: 'bob' }), s, guest, now)).thenThrows('forbidden');
  });

  it('maxBookingsPerUser counts the booked user’s bookings (the count the state holds)', () => {
    given(state({ resource: resource({ maxBookingsPerUser: 1 }), activeBookingsOfBooker: 1, blackouts: [] }))
      .when((s) => decideCreateBooking(command({ bookerProfileId: 'ceo' }), s, groupAdmin, now))
      .thenThrows('policy_violation', { policy: 'maxBookingsPerUser' });
  });

  describe('series', () => {
    const series = (extra: Partial<CreateSeries> = {}): CreateSeries => ({
      parentId,
      newId: idSource(),
      title: 'Stand-up',
      startTime: at('2027-01-11T09:00:00Z'),
      endTime: at('2027-01-11T09:30:00Z'),
      recurrenceRule: 'FREQ=WEEKLY;COUNT=2',
      ...extra,
    });

    it('every record, the parent included, is the named user’s and carries the actor as createdBy', () => {
      const events = decideCreateSeries(series({ bookerProfileId: 'ceo' }), { resource: resource(), overlapping: [], activeBookingsOfBooker: 0, blackouts: [] }, groupAdmin, now);
      expect(events.map((e) => [e.data.booking.isSeriesParent, e.data.booking.bookerProfileId, e.data.booking.createdBy])).to.deep.equal([
        [true, 'ceo', 'assistant'],
        [false, 'ceo', 'assistant'],
        [false, 'ceo', 'assistant'],
      ]);
    });

    it('LV4 naming another user → 403', () => {
      given({ resource: resource(), overlapping: [], activeBookingsOfBooker: 0, blackouts: [] })
        .when((s) => decideCreateSeries(series({ bookerProfileId: 'bob' }), s, alice, now))
        .thenThrows('forbidden');
    });

    it('occurrences a change adds are the series booker’s, created by whoever changed it', () => {
      const { parent, occurrences } = storedSeries(2);
      const events = decideUpdateSeries(
        { newId: idSource('bbbbbbbb'), recurrenceRule: 'FREQ=WEEKLY;COUNT=3' },
        { parent, resource: resource(), upcoming: occurrences, overlapping: occurrences, activeBookingsOfBooker: 2, blackouts: [] },
        admin,
        now,
      );
      const created = events.filter((e) => e.type === 'BookingCreated');
      expect(created.map((e) => [e.data.booking.bookerProfileId, e.data.booking.createdBy])).to.deep.equal([['alice', 'admin']]);
    });
  });
});
