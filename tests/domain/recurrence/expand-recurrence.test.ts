import { expect } from 'chai';
import { performance } from 'node:perf_hooks';
import { Temporal } from 'temporal-polyfill';
import {
  expandRecurrence,
  RecurrenceError,
  type ExpandRecurrenceInput,
  type RecurrenceErrorCode,
  type ExpandRecurrenceResult,
} from '../../../src/domain/recurrence/index.js';

const BERLIN = 'Europe/Berlin';
const HORIZON = Temporal.Instant.from('2027-12-31T23:59:59Z');

function berlin(local: string): Temporal.Instant {
  return Temporal.PlainDateTime.from(local).toZonedDateTime(BERLIN).toInstant();
}

function expand(
  rule: string,
  firstStartLocal: string,
  options: Partial<ExpandRecurrenceInput> = {},
): ExpandRecurrenceResult {
  return expandRecurrence({
    rule,
    timeZone: BERLIN,
    firstStart: berlin(firstStartLocal),
    durationMs: 30 * 60_000,
    horizon: HORIZON,
    ...options,
  });
}

function localStarts(result: ExpandRecurrenceResult): string[] {
  return result.occurrences.map(({ start }) =>
    start.toZonedDateTimeISO(BERLIN).toPlainDateTime().toString({ smallestUnit: 'minute' }),
  );
}

function startsOf(
  rule: string,
  firstStartLocal: string,
  options: Partial<ExpandRecurrenceInput> = {},
): string[] {
  return localStarts(expand(rule, firstStartLocal, options));
}

function expectCode(run: () => unknown, code: RecurrenceErrorCode): void {
  expect(run).to.throw(RecurrenceError).with.property('code', code);
}

// Expected dates below were cross-checked with python-dateutil.
describe('expandRecurrence', () => {
  describe('INTERVAL', () => {
    it('skips days', () => {
      expect(startsOf('FREQ=DAILY;INTERVAL=3;COUNT=4', '2026-01-05T09:00')).to.deep.equal([
        '2026-01-05T09:00',
        '2026-01-08T09:00',
        '2026-01-11T09:00',
        '2026-01-14T09:00',
      ]);
    });

    it('skips weeks, keeping every selected day of a week it lands on', () => {
      const result = expand('FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,FR;COUNT=4', '2026-01-05T09:00');

      expect(localStarts(result)).to.deep.equal([
        '2026-01-05T09:00',
        '2026-01-09T09:00',
        '2026-01-26T09:00',
        '2026-01-30T09:00',
      ]);
    });

    it('skips months', () => {
      expect(startsOf('FREQ=MONTHLY;INTERVAL=2;COUNT=4', '2026-01-05T09:00')).to.deep.equal([
        '2026-01-05T09:00',
        '2026-03-05T09:00',
        '2026-05-05T09:00',
        '2026-07-05T09:00',
      ]);
    });
  });

  describe('BYMONTHDAY', () => {
    it('counts -1 as the last day of each month, leap February included', () => {
      expect(startsOf('FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=5', '2026-01-31T09:00')).to.deep.equal([
        '2026-01-31T09:00',
        '2026-02-28T09:00',
        '2026-03-31T09:00',
        '2026-04-30T09:00',
        '2026-05-31T09:00',
      ]);
      expect(
        localStarts(
          expand('FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=2', '2028-01-31T09:00', {
            horizon: Temporal.Instant.from('2028-12-31T00:00:00Z'),
          }),
        ),
      ).to.deep.equal(['2028-01-31T09:00', '2028-02-29T09:00']);
    });

    it('is limited by BYDAY (first Tuesday of the month)', () => {
      const result = expand(
        'FREQ=MONTHLY;BYDAY=TU;BYMONTHDAY=1,2,3,4,5,6,7;COUNT=3',
        '2026-01-06T09:00',
      );

      expect(localStarts(result)).to.deep.equal([
        '2026-01-06T09:00',
        '2026-02-03T09:00',
        '2026-03-03T09:00',
      ]);
    });
  });

  describe('BYDAY ordinals', () => {
    it('counts -1FR from the end of the month', () => {
      expect(startsOf('FREQ=MONTHLY;BYDAY=-1FR;COUNT=3', '2026-01-30T09:00')).to.deep.equal([
        '2026-01-30T09:00',
        '2026-02-27T09:00',
        '2026-03-27T09:00',
      ]);
    });

    it('selects the union of plain and ordinal weekdays, as RFC 5545 reads', () => {
      // python-dateutil intersects them instead and finds no occurrence at all.
      expect(startsOf('FREQ=MONTHLY;BYDAY=MO,1TU;COUNT=5', '2026-01-05T09:00')).to.deep.equal([
        '2026-01-05T09:00',
        '2026-01-06T09:00',
        '2026-01-12T09:00',
        '2026-01-19T09:00',
        '2026-01-26T09:00',
      ]);
    });

    it('counts within the year for YEARLY without BYMONTH', () => {
      expect(startsOf('FREQ=YEARLY;BYDAY=20MO;COUNT=2', '2026-05-18T09:00')).to.deep.equal([
        '2026-05-18T09:00',
        '2027-05-17T09:00',
      ]);
    });
  });

  describe('YEARLY with BYMONTH', () => {
    it('repeats the first start day in every listed month', () => {
      expect(startsOf('FREQ=YEARLY;BYMONTH=1,7;COUNT=4', '2026-01-15T09:00')).to.deep.equal([
        '2026-01-15T09:00',
        '2026-07-15T09:00',
        '2027-01-15T09:00',
        '2027-07-15T09:00',
      ]);
    });

    it('counts BYDAY ordinals within each listed month', () => {
      const rule = 'FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU;COUNT=4';

      expect(startsOf(rule, '2026-03-29T12:00')).to.deep.equal([
        '2026-03-29T12:00',
        '2026-10-25T12:00',
        '2027-03-28T12:00',
        '2027-10-31T12:00',
      ]);
    });
  });

  describe('WKST', () => {
    it('changes which days share a week for WEEKLY;INTERVAL=2', () => {
      const rule = 'FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU';

      expect(localStarts(expand(`${rule};WKST=MO`, '2026-08-04T09:00'))).to.deep.equal([
        '2026-08-04T09:00',
        '2026-08-09T09:00',
        '2026-08-18T09:00',
        '2026-08-23T09:00',
      ]);
      expect(localStarts(expand(`${rule};WKST=SU`, '2026-08-04T09:00'))).to.deep.equal([
        '2026-08-04T09:00',
        '2026-08-16T09:00',
        '2026-08-18T09:00',
        '2026-08-30T09:00',
      ]);
    });
  });

  describe('EXDATE', () => {
    it('drops the excluded occurrence after COUNT has been applied', () => {
      const result = expand('FREQ=DAILY;COUNT=4', '2026-06-01T09:00', {
        exdates: [berlin('2026-06-02T09:00')],
      });

      expect(localStarts(result)).to.deep.equal([
        '2026-06-01T09:00',
        '2026-06-03T09:00',
        '2026-06-04T09:00',
      ]);
    });

    it('ignores an exception that is not an occurrence start', () => {
      const result = expand('FREQ=DAILY;COUNT=2', '2026-06-01T09:00', {
        exdates: [berlin('2026-06-02T10:00')],
      });

      expect(result.occurrences).to.have.length(2);
    });
  });

  describe('horizon', () => {
    const horizon = berlin('2026-06-05T09:00');

    it('keeps an occurrence starting exactly at the horizon', () => {
      const result = expand('FREQ=DAILY;COUNT=5', '2026-06-01T09:00', { horizon });

      expect(result.occurrences).to.have.length(5);
      expect(result.exceedsHorizon).to.equal(false);
    });

    it('flags a COUNT rule that goes past the horizon', () => {
      const result = expand('FREQ=DAILY;COUNT=10', '2026-06-01T09:00', { horizon });

      expect(result.occurrences).to.have.length(5);
      expect(result.exceedsHorizon).to.equal(true);
    });

    it('flags an UNTIL rule that goes past the horizon', () => {
      const result = expand('FREQ=DAILY;UNTIL=20260610T000000Z', '2026-06-01T09:00', { horizon });

      expect(result.occurrences).to.have.length(5);
      expect(result.exceedsHorizon).to.equal(true);
    });

    it('does not flag a bounded rule whose only later occurrences are excluded', () => {
      const result = expand('FREQ=DAILY;COUNT=6', '2026-06-01T09:00', {
        horizon,
        exdates: [berlin('2026-06-06T09:00')],
      });

      expect(result.occurrences).to.have.length(5);
      expect(result.exceedsHorizon).to.equal(false);
    });

    it('stops an unbounded rule at the horizon without flagging it', () => {
      const result = expand('FREQ=WEEKLY', '2026-06-01T09:00', {
        horizon: berlin('2026-07-01T00:00'),
      });

      expect(localStarts(result)).to.deep.equal([
        '2026-06-01T09:00',
        '2026-06-08T09:00',
        '2026-06-15T09:00',
        '2026-06-22T09:00',
        '2026-06-29T09:00',
      ]);
      expect(result.exceedsHorizon).to.equal(false);
    });

    it('returns nothing when the first start is after the horizon', () => {
      const result = expand('FREQ=DAILY;COUNT=3', '2028-01-10T09:00');

      expect(result).to.deep.equal({ occurrences: [], exceedsHorizon: true });
    });
  });

  describe('too_many_occurrences', () => {
    it('rejects COUNT above the default limit of 500', () => {
      expect(startsOf('FREQ=DAILY;COUNT=500', '2026-01-01T09:00')).to.have.length(500);
      expectCode(() => expand('FREQ=DAILY;COUNT=501', '2026-01-01T09:00'), 'too_many_occurrences');
    });

    it('rejects an unbounded rule with more than 500 occurrences up to the horizon', () => {
      const horizonAfter500Days = berlin('2027-05-15T09:00');

      expect(startsOf('FREQ=DAILY', '2026-01-01T09:00', { horizon: horizonAfter500Days }))
        .to.have.length(500);
      expectCode(() => expand('FREQ=DAILY', '2026-01-01T09:00'), 'too_many_occurrences');
    });

    it('rejects an UNTIL rule that would produce more, even past the horizon', () => {
      expectCode(
        () =>
          expand('FREQ=DAILY;UNTIL=20271231T000000Z', '2026-01-01T09:00', {
            horizon: berlin('2026-02-01T00:00'),
          }),
        'too_many_occurrences',
      );
    });

    it('honours a custom maxOccurrences', () => {
      const withinLimit = startsOf('FREQ=DAILY;COUNT=3', '2026-01-01T09:00', { maxOccurrences: 3 });

      expect(withinLimit).to.have.length(3);
      expectCode(
        () => expand('FREQ=DAILY;COUNT=4', '2026-01-01T09:00', { maxOccurrences: 3 }),
        'too_many_occurrences',
      );
      expectCode(
        () => expand('FREQ=WEEKLY', '2026-01-01T09:00', { maxOccurrences: 3 }),
        'too_many_occurrences',
      );
    });
  });

  describe('dtstart_mismatch', () => {
    it('rejects a first start on a day the rule does not select', () => {
      expectCode(
        () => expand('FREQ=WEEKLY;BYDAY=TU;COUNT=3', '2026-06-01T09:00'),
        'dtstart_mismatch',
      );
      expectCode(
        () => expand('FREQ=MONTHLY;BYDAY=-1FR;COUNT=3', '2026-01-23T09:00'),
        'dtstart_mismatch',
      );
    });

    it('rejects a first start removed by BYSETPOS', () => {
      expectCode(
        () => expand('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', '2026-02-26T09:00'),
        'dtstart_mismatch',
      );
    });

    it('rejects an UNTIL before the first start', () => {
      expectCode(
        () => expand('FREQ=DAILY;UNTIL=20260101T000000Z', '2026-06-01T09:00'),
        'dtstart_mismatch',
      );
    });
  });

  describe('errors from the rule text', () => {
    it('passes on invalid_rule and frequency_too_fine', () => {
      expectCode(() => expand('FREQ=DAILY;BYHOUR=9', '2026-06-01T09:00'), 'invalid_rule');
      expectCode(() => expand('FREQ=HOURLY', '2026-06-01T09:00'), 'frequency_too_fine');
    });
  });

  describe('bounded work on abusive rules', () => {
    const farHorizon = Temporal.Instant.from('9999-12-31T00:00:00Z');

    // A walk to year 9999 takes far longer than this bound; the bound itself is loose enough for a
    // shared, loaded machine (about 1 s there), where a tight one failed without any defect.
    const bound = 5_000;

    function timed(run: () => void): number {
      const started = performance.now();
      run();
      return performance.now() - started;
    }

    it('answers impossible rules at once', () => {
      for (const rule of [
        'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
        'FREQ=DAILY;BYMONTHDAY=31;BYMONTH=4',
        'FREQ=DAILY;BYMONTHDAY=31;BYMONTH=4;UNTIL=99991231T235959Z',
      ]) {
        const elapsed = timed(() =>
          expectCode(
            () => expand(rule, '2026-04-30T09:00', { horizon: farHorizon }),
            'dtstart_mismatch',
          ),
        );
        expect(elapsed, rule).to.be.below(bound);
      }
    });

    it('answers an UNTIL in year 9999 without walking to it', () => {
      const elapsed = timed(() =>
        expectCode(
          () => expand('FREQ=DAILY;UNTIL=99991231T235959Z', '2026-01-01T09:00'),
          'too_many_occurrences',
        ),
      );
      expect(elapsed).to.be.below(bound);
    });

    it('scans sparse rules up to year 9999 quickly', () => {
      // 29 February on a Monday: about 14 times in 400 years.
      const rule = 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO';
      let result: ExpandRecurrenceResult | undefined;

      const elapsed = timed(() => {
        result = expand(rule, '2044-02-29T09:00', { horizon: farHorizon });
      });

      expect(localStarts(result!).slice(0, 3)).to.deep.equal([
        '2044-02-29T09:00',
        '2072-02-29T09:00',
        '2112-02-29T09:00',
      ]);
      expect(result!.occurrences.length).to.be.within(200, 400);
      expect(elapsed).to.be.below(bound);
      const untilElapsed = timed(() =>
        expand(`${rule};UNTIL=99991231T235959Z`, '2044-02-29T09:00'),
      );
      expect(untilElapsed).to.be.below(bound);
    });
  });
});
