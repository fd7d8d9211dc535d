import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import {
  parseRecurrenceRule,
  RecurrenceError,
} from '../../../src/domain/recurrence/index.js';

describe('parseRecurrenceRule', () => {
  describe('accepted rules', () => {
    it('reads every supported part, with or without the RRULE: prefix', () => {
      const rule = [
        'FREQ=MONTHLY',
        'INTERVAL=2',
        'UNTIL=20271231T235959Z',
        'BYDAY=MO,-1FR,+2TU',
        'BYMONTHDAY=1,-1',
        'BYMONTH=3,9',
        'BYSETPOS=1,-1',
        'WKST=SU',
      ].join(';');

      const parsed = parseRecurrenceRule(`RRULE:${rule}`);

      expect(parsed).to.deep.include({
        freq: 'MONTHLY',
        interval: 2,
        byDay: [{ weekday: 1 }, { weekday: 5, ordinal: -1 }, { weekday: 2, ordinal: 2 }],
        byMonthDay: [1, -1],
        byMonth: [3, 9],
        bySetPos: [1, -1],
        wkst: 7,
      });
      expect(parsed.until?.equals(Temporal.Instant.from('2027-12-31T23:59:59Z'))).to.equal(true);
      expect(parseRecurrenceRule(rule)).to.deep.equal(parsed);
    });

    it('defaults INTERVAL to 1 and WKST to Monday, and is case-insensitive', () => {
      expect(parseRecurrenceRule('rrule:freq=weekly;count=3')).to.deep.equal({
        freq: 'WEEKLY',
        interval: 1,
        count: 3,
        byDay: [],
        byMonthDay: [],
        byMonth: [],
        bySetPos: [],
        wkst: 1,
      });
    });
  });

  describe('invalid_rule', () => {
    const invalidRules = [
      '',
      'COUNT=3',
      'FREQ=FORTNIGHTLY',
      'FREQ=DAILY;',
      'FREQ=DAILY;COUNT',
      'FREQ=DAILY;FOO=1',
      'FREQ=DAILY;FREQ=WEEKLY',
      'FREQ=DAILY;COUNT=3;UNTIL=20261231T000000Z',
      'FREQ=DAILY;COUNT=0',
      'FREQ=DAILY;COUNT=2.5',
      'FREQ=DAILY;INTERVAL=-1',
      'FREQ=DAILY;UNTIL=20261231',
      'FREQ=DAILY;UNTIL=20261231T000000',
      'FREQ=DAILY;UNTIL=20260230T000000Z',
      'FREQ=MONTHLY;BYDAY=XX',
      'FREQ=MONTHLY;BYDAY=0MO',
      'FREQ=MONTHLY;BYDAY=54MO',
      'FREQ=WEEKLY;BYDAY=1MO',
      'FREQ=DAILY;BYDAY=-1FR',
      'FREQ=WEEKLY;BYMONTHDAY=1',
      'FREQ=MONTHLY;BYMONTHDAY=0',
      'FREQ=MONTHLY;BYMONTHDAY=32',
      'FREQ=YEARLY;BYMONTH=13',
      'FREQ=YEARLY;BYMONTH=1,,2',
      'FREQ=MONTHLY;BYSETPOS=1',
      'FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0',
      'FREQ=WEEKLY;WKST=XX',
      'FREQ=YEARLY;BYYEARDAY=100',
      'FREQ=YEARLY;BYWEEKNO=20',
      'FREQ=DAILY;BYSECOND=0',
    ];

    for (const rule of invalidRules) {
      it(`rejects "${rule}"`, () => {
        expect(() => parseRecurrenceRule(rule))
          .to.throw(RecurrenceError)
          .with.property('code', 'invalid_rule');
      });
    }

    it('says that BYHOUR is not supported', () => {
      expect(() => parseRecurrenceRule('FREQ=DAILY;BYHOUR=9,17'))
        .to.throw(RecurrenceError, /BYHOUR is not supported/)
        .with.property('code', 'invalid_rule');
    });
  });

  describe('frequency_too_fine', () => {
    for (const freq of ['HOURLY', 'MINUTELY', 'SECONDLY']) {
      it(`rejects FREQ=${freq}`, () => {
        expect(() => parseRecurrenceRule(`FREQ=${freq};COUNT=3`))
          .to.throw(RecurrenceError)
          .with.property('code', 'frequency_too_fine');
      });
    }
  });
});
