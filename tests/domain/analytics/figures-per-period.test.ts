import { expect } from 'chai';
import { figuresPerPeriod, type AnalysedBooking } from '../../../src/domain/analytics/figures-per-period.js';
import type { BookingStatus } from '../../../src/domain/booking/booking.js';

const us = (text: string) => Date.parse(text) * 1000;
const booking = (start: string, end: string, status: BookingStatus, checkedIn = false, units = 1): AnalysedBooking => ({ startUs: us(start), endUs: us(end), status, checkedIn, units });
const none = { bookedMinutes: 0, bookings: 0, cancelled: 0, noShows: 0, completed: 0, checkedIn: 0 };
// Berlin days 2026-03-28 (24 h), 2026-03-29 (23 h, spring forward), 2026-03-30.
const boundaries = ['2026-03-27T23:00:00Z', '2026-03-28T23:00:00Z', '2026-03-29T22:00:00Z', '2026-03-30T22:00:00Z'].map(Date.parse);

describe('booking figures per period', () => {
  it('cuts held minutes at the period edges and counts a booking in the period it starts in', () => {
    const figures = figuresPerPeriod([booking('2026-03-29T21:30:00Z', '2026-03-29T22:45:00Z', 'completed', true)], boundaries);
    expect(figures).to.deep.equal([none, { ...none, bookedMinutes: 30, bookings: 1, completed: 1, checkedIn: 1 }, { ...none, bookedMinutes: 45 }]);
  });

  it('holds minutes only for confirmed, completed and no-show bookings, and counts every status', () => {
    const figures = figuresPerPeriod(
      [
        booking('2026-03-28T08:00:00Z', '2026-03-28T09:00:00Z', 'confirmed'),
        booking('2026-03-28T09:00:00Z', '2026-03-28T10:00:00Z', 'no_show'),
        booking('2026-03-28T10:00:00Z', '2026-03-28T11:00:00Z', 'cancelled'),
        booking('2026-03-28T11:00:00Z', '2026-03-28T12:00:00Z', 'pending'),
      ],
      boundaries,
    );
    expect(figures[0]).to.deep.equal({ bookedMinutes: 120, bookings: 4, cancelled: 1, noShows: 1, completed: 0, checkedIn: 0 });
  });

  it('cuts at the range and leaves out of the counts a booking that started before it', () => {
    const figures = figuresPerPeriod([booking('2026-03-27T22:00:00Z', '2026-03-28T00:00:00Z', 'confirmed'), booking('2026-03-30T21:00:00Z', '2026-03-31T01:00:00Z', 'confirmed')], boundaries);
    expect(figures).to.deep.equal([{ ...none, bookedMinutes: 60 }, none, { ...none, bookedMinutes: 60, bookings: 1 }]);
  });

  it('counts the minutes of a pool booking once per unit it takes (contract §21: unit-minutes)', () => {
    const figures = figuresPerPeriod([booking('2026-03-28T08:00:00Z', '2026-03-28T09:00:00Z', 'confirmed', false, 3), booking('2026-03-28T08:30:00Z', '2026-03-28T09:00:00Z', 'confirmed')], [boundaries[0]!, boundaries[1]!]);
    expect(figures[0]).to.include({ bookedMinutes: 210, bookings: 2 });
  });

  it('keeps microseconds exact and rounds as milliseconds, then minutes', () => {
    const start = us('2026-03-28T08:00:00Z') + 1;
    const figures = figuresPerPeriod([{ startUs: start, endUs: start + 90_000_123, status: 'confirmed', checkedIn: false, units: 1 }], [boundaries[0]!, boundaries[1]!]);
    expect(figures[0]!.bookedMinutes).to.equal(90_000.123 / 60_000);
  });
});
