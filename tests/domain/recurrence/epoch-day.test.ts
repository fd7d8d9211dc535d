import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import {
  civilDate,
  daysInMonth,
  epochDay,
  isoWeekday,
} from '../../../src/domain/recurrence/epoch-day.js';

describe('epoch-day calendar arithmetic', () => {
  it('agrees with Temporal on every day of a span with century and leap years', () => {
    const first = Temporal.PlainDate.from('1899-12-25');
    const last = Temporal.PlainDate.from('2101-01-05');
    const firstDay = epochDay(first.year, first.month, first.day);
    let date = first;
    for (let day = firstDay; Temporal.PlainDate.compare(date, last) <= 0; day += 1) {
      const expected = { year: date.year, month: date.month, day: date.day };
      if (
        JSON.stringify(civilDate(day)) !== JSON.stringify(expected) ||
        epochDay(date.year, date.month, date.day) !== day ||
        isoWeekday(day) !== date.dayOfWeek ||
        daysInMonth(date.year, date.month) !== date.daysInMonth
      ) {
        expect.fail(`disagreement on ${date.toString()}`);
      }
      date = date.add({ days: 1 });
    }
  });

  it('counts from 1970-01-01 and handles the last supported year', () => {
    expect(epochDay(1970, 1, 1)).to.equal(0);
    expect(civilDate(epochDay(9999, 12, 31))).to.deep.equal({ year: 9999, month: 12, day: 31 });
    expect(daysInMonth(2000, 2)).to.equal(29);
    expect(daysInMonth(2100, 2)).to.equal(28);
  });
});
