import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { periodBoundaries, utilizationPeriods } from '../../../src/domain/analytics/utilization-periods.js';

const at = (text: string) => Temporal.Instant.from(text);
const hours = (p: { startMs: number; endMs: number }) => (p.endMs - p.startMs) / 3_600_000;

describe('utilization periods', () => {
  it('gives one period for the whole range when grouped by resource', () => {
    const periods = utilizationPeriods(at('2026-03-28T10:00:00Z'), at('2026-03-30T10:00:00Z'), 'resource', 'Europe/Berlin');
    expect(periods).to.deep.equal([{ day: null, startMs: Date.parse('2026-03-28T10:00:00Z'), endMs: Date.parse('2026-03-30T10:00:00Z') }]);
  });

  it('cuts the range at local midnights: the spring-forward day has 23 hours', () => {
    const periods = utilizationPeriods(at('2026-03-28T00:00:00+01:00'), at('2026-03-31T00:00:00+02:00'), 'day', 'Europe/Berlin');
    expect(periods.map((p) => p.day)).to.deep.equal(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(periods.map(hours)).to.deep.equal([24, 23, 24]);
    expect(periodBoundaries(periods)).to.deep.equal([
      Date.parse('2026-03-27T23:00:00Z'),
      Date.parse('2026-03-28T23:00:00Z'),
      Date.parse('2026-03-29T22:00:00Z'),
      Date.parse('2026-03-30T22:00:00Z'),
    ]);
  });

  it('gives the fall-back day 25 hours', () => {
    const periods = utilizationPeriods(at('2026-10-25T00:00:00+02:00'), at('2026-10-26T00:00:00+01:00'), 'day', 'Europe/Berlin');
    expect(periods.map((p) => p.day)).to.deep.equal(['2026-10-25']);
    expect(periods.map(hours)).to.deep.equal([25]);
  });

  it('cuts the first and last day to the range', () => {
    const periods = utilizationPeriods(at('2026-03-28T12:00:00Z'), at('2026-03-29T06:00:00Z'), 'day', 'UTC');
    expect(periods.map((p) => [p.day, hours(p)])).to.deep.equal([
      ['2026-03-28', 12],
      ['2026-03-29', 6],
    ]);
  });

  it('names the day in the asked zone, not in UTC', () => {
    const periods = utilizationPeriods(at('2026-06-01T22:30:00Z'), at('2026-06-01T23:30:00Z'), 'day', 'Europe/Berlin');
    expect(periods.map((p) => p.day)).to.deep.equal(['2026-06-02']);
  });

  it('has no period for an empty range', () => {
    expect(utilizationPeriods(at('2026-03-28T12:00:00Z'), at('2026-03-28T12:00:00Z'), 'day', 'UTC')).to.deep.equal([]);
    expect(periodBoundaries([])).to.deep.equal([]);
  });
});
