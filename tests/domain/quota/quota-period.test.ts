import { expect } from 'chai';
import { periodContaining } from '../../../src/domain/quota/quota-period.js';
import { at } from '../booking/booking-fixtures.js';
import { iso } from './quota-fixtures.js';

const period = (...args: Parameters<typeof periodContaining>) => {
  const { start, end } = periodContaining(...args);
  return [iso(start), iso(end)];
};

describe('quota periods', () => {
  it('a day is the calendar day of the zone, midnight to midnight', () => {
    expect(period('day', 'UTC', at('2027-01-05T23:59:59Z'))).to.deep.equal(['2027-01-05T00:00:00Z', '2027-01-06T00:00:00Z']);
    expect(period('day', 'Europe/Berlin', at('2027-01-05T23:30:00Z'))).to.deep.equal(['2027-01-05T23:00:00Z', '2027-01-06T23:00:00Z']);
  });

  it('a start exactly at midnight belongs to the day it opens', () => {
    expect(period('day', 'UTC', at('2027-01-06T00:00:00Z'))).to.deep.equal(['2027-01-06T00:00:00Z', '2027-01-07T00:00:00Z']);
  });

  it('days across DST changes are 23 and 25 hours long', () => {
    // Berlin: 2027-03-28 02:00 → 03:00, 2027-10-31 03:00 → 02:00.
    expect(period('day', 'Europe/Berlin', at('2027-03-28T12:00:00Z'))).to.deep.equal(['2027-03-27T23:00:00Z', '2027-03-28T22:00:00Z']);
    expect(period('day', 'Europe/Berlin', at('2027-10-31T12:00:00Z'))).to.deep.equal(['2027-10-30T22:00:00Z', '2027-10-31T23:00:00Z']);
  });

  it('a midnight that does not exist starts the day at the first instant after it', () => {
    // Santiago springs forward at 00:00 local: 2027-09-05 starts at 01:00 (-03).
    expect(period('day', 'America/Santiago', at('2027-09-05T12:00:00Z'))).to.deep.equal(['2027-09-05T04:00:00Z', '2027-09-06T03:00:00Z']);
  });

  it('a week is the ISO week from Monday 00:00, also across a year end', () => {
    // 2027-01-01 is a Friday: its ISO week starts Monday 2026-12-28.
    expect(period('week', 'UTC', at('2027-01-01T10:00:00Z'))).to.deep.equal(['2026-12-28T00:00:00Z', '2027-01-04T00:00:00Z']);
    // A Sunday is the last day of its week; a Monday the first of the next.
    expect(period('week', 'UTC', at('2027-01-10T23:00:00Z'))).to.deep.equal(['2027-01-04T00:00:00Z', '2027-01-11T00:00:00Z']);
    expect(period('week', 'UTC', at('2027-01-11T00:00:00Z'))).to.deep.equal(['2027-01-11T00:00:00Z', '2027-01-18T00:00:00Z']);
  });

  it('the week is that of the zone: Sunday night UTC is already Monday in Tokyo', () => {
    expect(period('week', 'Asia/Tokyo', at('2027-01-10T20:00:00Z'))).to.deep.equal(['2027-01-10T15:00:00Z', '2027-01-17T15:00:00Z']);
  });

  it('a week over a DST change is 167 hours long', () => {
    expect(period('week', 'Europe/Berlin', at('2027-03-26T12:00:00Z'))).to.deep.equal(['2027-03-21T23:00:00Z', '2027-03-28T22:00:00Z']);
  });

  it('a month is the calendar month of the zone, February and DST included', () => {
    expect(period('month', 'UTC', at('2028-02-29T12:00:00Z'))).to.deep.equal(['2028-02-01T00:00:00Z', '2028-03-01T00:00:00Z']);
    expect(period('month', 'Europe/Berlin', at('2027-03-31T22:30:00Z'))).to.deep.equal(['2027-03-31T22:00:00Z', '2027-04-30T22:00:00Z']);
    expect(period('month', 'Europe/Berlin', at('2027-03-15T12:00:00Z'))).to.deep.equal(['2027-02-28T23:00:00Z', '2027-03-31T22:00:00Z']);
  });
});
