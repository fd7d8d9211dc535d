import { expect } from 'chai';
import type { CreateSeries, CreateSeriesState } from '../../../../src/domain/booking/series/decide-create-series.js';
import { previewSeriesOccurrences } from '../../../../src/domain/booking/series/preview-series-occurrences.js';
import { alice, at, booking, guest, now, resource } from '../booking-fixtures.js';
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

describe('previewing a series', () => {
  it('lists every occurrence with the bookings in its way and the policies it breaks', () => {
    const inTheWay = booking({ startTime: '2027-01-18T09:20:00Z', endTime: '2027-01-18T10:00:00Z' });
    const hours = { timeZone: 'UTC', hours: { monday: [{ start: '08:00', end: '18:00' }] } };
    const preview = previewSeriesOccurrences(
      command({ recurrenceRule: 'FREQ=DAILY;INTERVAL=7;COUNT=5' }),
      state({ resource: resource({ maxAdvanceDays: 30, maxBookingsPerUser: 4 }, { availability: hours }), overlapping: [inTheWay], activeBookingsOfBooker: 1 }),
      alice,
      now,
    );
    expect(preview).to.deep.equal([
      { startTime: '2027-01-11T09:00:00Z', endTime: '2027-01-11T09:30:00Z', conflicts: [], availableUnits: 1, violations: [] },
      {
        startTime: '2027-01-18T09:00:00Z',
        endTime: '2027-01-18T09:30:00Z',
        conflicts: [{ bookingId: inTheWay.id, startTime: '2027-01-18T09:20:00Z', endTime: '2027-01-18T10:00:00Z' }],
        availableUnits: 0,
        violations: [],
      },
      { startTime: '2027-01-25T09:00:00Z', endTime: '2027-01-25T09:30:00Z', conflicts: [], availableUnits: 1, violations: [] },
      { startTime: '2027-02-01T09:00:00Z', endTime: '2027-02-01T09:30:00Z', conflicts: [], availableUnits: 1, violations: ['maxBookingsPerUser'] },
      { startTime: '2027-02-08T09:00:00Z', endTime: '2027-02-08T09:30:00Z', conflicts: [], availableUnits: 1, violations: ['maxAdvanceDays', 'maxBookingsPerUser'] },
    ]);
  });

  it('fails the request as a whole as a creation would', () => {
    given(state()).when((s) => previewSeriesOccurrences(command({ recurrenceRule: 'FREQ=SECONDLY' }), s, alice, now)).thenThrows('invalid_request');
    given(state()).when((s) => previewSeriesOccurrences(command(), s, guest, now)).thenThrows('forbidden');
    given(state({ resource: null })).when((s) => previewSeriesOccurrences(command(), s, alice, now)).thenThrows('not_found');
    given(state({ resource: resource({ allowRecurring: false }) })).when((s) => previewSeriesOccurrences(command(), s, alice, now)).thenThrows('policy_violation', { policy: 'allowRecurring' });
  });
});
