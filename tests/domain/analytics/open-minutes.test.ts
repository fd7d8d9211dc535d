import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { openMinutesPerPeriod, overlapMs } from '../../../src/domain/analytics/open-minutes.js';
import { utilizationPeriods } from '../../../src/domain/analytics/utilization-periods.js';
import { utilizationOf, utilizationRowJson } from '../../../src/domain/analytics/utilization-row.js';
import type { Availability } from '../../../src/domain/resource/resource.js';

const at = (text: string) => Temporal.Instant.from(text);
const berlinDays = (from: string, to: string) => utilizationPeriods(at(from), at(to), 'day', 'Europe/Berlin');

describe('open minutes', () => {
  it('counts a resource without hours as open all day: 1440, 1380 on spring-forward, 1500 on fall-back', () => {
    expect(openMinutesPerPeriod(null, berlinDays('2026-03-28T00:00:00+01:00', '2026-03-31T00:00:00+02:00'))).to.deep.equal([1440, 1380, 1440]);
    expect(openMinutesPerPeriod(null, berlinDays('2026-10-25T00:00:00+02:00', '2026-10-26T00:00:00+01:00'))).to.deep.equal([1500]);
  });

  it('lays wall-clock hours out in the resource zone: 01:00–04:00 is 2 h on spring-forward, 4 h on fall-back', () => {
    const nights: Availability = { timeZone: 'Europe/Berlin', hours: { sunday: [{ start: '01:00', end: '04:00' }] } };
    expect(openMinutesPerPeriod(nights, berlinDays('2026-03-29T00:00:00+01:00', '2026-03-30T00:00:00+02:00'))).to.deep.equal([120]);
    expect(openMinutesPerPeriod(nights, berlinDays('2026-10-25T00:00:00+02:00', '2026-10-26T00:00:00+01:00'))).to.deep.equal([240]);
  });

  it('gives a day without hours 0, and a 00:00–24:00 window the whole (23-hour) day', () => {
    const weekdays: Availability = { timeZone: 'Europe/Berlin', hours: { friday: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '17:30' }], sunday: [{ start: '00:00', end: '24:00' }] } };
    // Fri 27, Sat 28, Sun 29 (23 h), Mon 30 March 2026.
    expect(openMinutesPerPeriod(weekdays, berlinDays('2026-03-27T00:00:00+01:00', '2026-03-31T00:00:00+02:00'))).to.deep.equal([510, 0, 1380, 0]);
  });

  it('cuts the hours at the boundaries of days of another zone', () => {
    const lateUtc: Availability = { timeZone: 'UTC', hours: { monday: [{ start: '22:00', end: '24:00' }] } };
    // Monday 22:00–24:00 UTC is Tuesday 00:00–02:00 in Berlin (summer time).
    expect(openMinutesPerPeriod(lateUtc, berlinDays('2026-03-30T00:00:00+02:00', '2026-04-01T00:00:00+02:00'))).to.deep.equal([0, 120]);
    const split: Availability = { timeZone: 'UTC', hours: { monday: [{ start: '21:00', end: '23:00' }] } };
    expect(openMinutesPerPeriod(split, berlinDays('2026-03-30T00:00:00+02:00', '2026-04-01T00:00:00+02:00'))).to.deep.equal([60, 60]);
  });

  it('counts only the part of the hours inside a range cut mid-window, in fractions of minutes if need be', () => {
    const office: Availability = { timeZone: 'UTC', hours: { monday: [{ start: '09:00', end: '17:00' }] } };
    const periods = utilizationPeriods(at('2026-03-30T12:00:30Z'), at('2026-03-31T00:00:00Z'), 'resource', 'UTC');
    expect(openMinutesPerPeriod(office, periods)).to.deep.equal([299.5]);
  });

  it('has nothing for no periods', () => {
    expect(openMinutesPerPeriod(null, [])).to.deep.equal([]);
  });
});

describe('clipping and the ratio', () => {
  it('measures the overlap of two spans, 0 when apart or touching', () => {
    expect(overlapMs(0, 10, 5, 20)).to.equal(5);
    expect(overlapMs(5, 20, 0, 10)).to.equal(5);
    expect(overlapMs(0, 10, 2, 4)).to.equal(2);
    expect(overlapMs(0, 10, 10, 20)).to.equal(0);
    expect(overlapMs(0, 10, 15, 20)).to.equal(0);
  });

  it('divides booked by open minutes, null when never open', () => {
    expect(utilizationOf(30, 120)).to.equal(0.25);
    expect(utilizationOf(0, 0)).to.equal(null);
    expect(utilizationOf(15, 0)).to.equal(null);
  });

  it('writes a row as JSON, the day only when grouped by day, in the documented order', () => {
    const figures = { bookedMinutes: 60.5, bookings: 2, cancelled: 1, noShows: 0, completed: 1, checkedIn: 1 };
    const byResource = utilizationRowJson('r', null, 121, figures);
    expect(byResource).to.equal(JSON.stringify({ resourceId: 'r', openMinutes: 121, bookedMinutes: 60.5, utilization: 60.5 / 121, bookings: 2, cancelled: 1, noShows: 0, completed: 1, checkedIn: 1 }));
    const byDay = JSON.parse(utilizationRowJson('r', '2026-03-29', 0, figures)) as Record<string, unknown>;
    expect(Object.keys(byDay).slice(0, 3)).to.deep.equal(['resourceId', 'day', 'openMinutes']);
    expect(byDay).to.include({ day: '2026-03-29', utilization: null });
  });
});
