import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { expandRecurrence } from '../../../src/domain/recurrence/index.js';

// Expected values computed independently with python-dateutil and zoneinfo.
const REFERENCE_CASES = [
  {
    zone: 'Europe/Berlin',
    dtstart: '2026-03-23T09:00',
    rule: 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6',
    expected: [
      '03-23 08:00',
      '03-25 08:00',
      '03-30 07:00',
      '04-01 07:00',
      '04-06 07:00',
      '04-08 07:00',
    ],
  },
  {
    zone: 'Europe/Berlin',
    dtstart: '2026-10-19T09:00',
    rule: 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6',
    expected: [
      '10-19 07:00',
      '10-21 07:00',
      '10-26 08:00',
      '10-28 08:00',
      '11-02 08:00',
      '11-04 08:00',
    ],
  },
  {
    zone: 'Europe/Berlin',
    dtstart: '2026-03-27T02:30',
    rule: 'FREQ=DAILY;COUNT=4',
    expected: ['03-27 01:30', '03-28 01:30', '03-29 01:30', '03-30 00:30'],
  },
  {
    zone: 'Europe/Berlin',
    dtstart: '2026-10-23T02:30',
    rule: 'FREQ=DAILY;COUNT=4',
    expected: ['10-23 00:30', '10-24 00:30', '10-25 00:30', '10-26 01:30'],
  },
  {
    zone: 'America/New_York',
    dtstart: '2026-03-06T02:30',
    rule: 'FREQ=DAILY;COUNT=4',
    expected: ['03-06 07:30', '03-07 07:30', '03-08 07:30', '03-09 06:30'],
  },
  {
    zone: 'America/New_York',
    dtstart: '2026-10-30T01:30',
    rule: 'FREQ=DAILY;COUNT=4',
    expected: ['10-30 05:30', '10-31 05:30', '11-01 05:30', '11-02 06:30'],
  },
  {
    zone: 'America/New_York',
    dtstart: '2026-02-08T02:30',
    rule: 'FREQ=MONTHLY;BYDAY=2SU;COUNT=3',
    expected: ['02-08 07:30', '03-08 07:30', '04-12 06:30'],
  },
  {
    zone: 'Australia/Lord_Howe',
    dtstart: '2026-10-02T02:15',
    rule: 'FREQ=DAILY;COUNT=4',
    expected: ['10-01 15:45', '10-02 15:45', '10-03 15:45', '10-04 15:15'],
  },
  {
    zone: 'Australia/Lord_Howe',
    dtstart: '2026-04-03T01:45',
    rule: 'FREQ=DAILY;COUNT=4',
    expected: ['04-02 14:45', '04-03 14:45', '04-04 14:45', '04-05 15:15'],
  },
  {
    zone: 'Europe/Berlin',
    dtstart: '2026-10-22T09:00',
    rule: 'FREQ=DAILY;UNTIL=20261025T080000Z',
    expected: ['10-22 07:00', '10-23 07:00', '10-24 07:00', '10-25 08:00'],
  },
  {
    zone: 'Europe/Berlin',
    dtstart: '2026-02-27T17:00',
    rule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3',
    expected: ['02-27 16:00', '03-31 15:00', '04-30 15:00'],
  },
  {
    zone: 'Europe/Berlin',
    dtstart: '2026-03-28T01:30',
    rule: 'FREQ=DAILY;COUNT=3',
    expected: ['03-28 00:30', '03-29 00:30', '03-29 23:30'],
  },
];

describe('expandRecurrence across DST transitions', () => {
  for (const { zone, dtstart, rule, expected } of REFERENCE_CASES) {
    it(`${zone} ${dtstart} ${rule}`, () => {
      const result = expandRecurrence({
        rule,
        timeZone: zone,
        firstStart: Temporal.PlainDateTime.from(dtstart).toZonedDateTime(zone).toInstant(),
        durationMs: 30 * 60_000,
        horizon: Temporal.Instant.from('2027-12-31T23:59:59Z'),
      });

      expect(result.occurrences.map(({ start }) => start.toString())).to.deep.equal(
        expected.map((utc) => `2026-${utc.replace(' ', 'T')}:00Z`),
      );
      expect(result.exceedsHorizon).to.equal(false);
    });
  }

  it('keeps the wall-clock time in the zone, whatever the offset', () => {
    const { occurrences } = expandRecurrence({
      rule: 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6',
      timeZone: 'Europe/Berlin',
      firstStart: Temporal.Instant.from('2026-03-23T08:00:00Z'),
      durationMs: 30 * 60_000,
      horizon: Temporal.Instant.from('2027-12-31T23:59:59Z'),
    });

    const localTimes = occurrences.map(({ start }) =>
      start.toZonedDateTimeISO('Europe/Berlin').toPlainTime().toString(),
    );
    expect(localTimes).to.deep.equal(Array(6).fill('09:00:00'));
  });

  it('ends each occurrence an exact duration after its start, even across a transition', () => {
    const { occurrences } = expandRecurrence({
      rule: 'FREQ=DAILY;COUNT=2',
      timeZone: 'Europe/Berlin',
      firstStart: Temporal.Instant.from('2026-03-29T00:30:00Z'),
      durationMs: 2 * 60 * 60_000,
      horizon: Temporal.Instant.from('2027-12-31T23:59:59Z'),
    });

    expect(occurrences.map(({ end }) => end.toString())).to.deep.equal([
      '2026-03-29T02:30:00Z',
      '2026-03-30T01:30:00Z',
    ]);
  });

  it('keeps a first start given as the later instant of a repeated hour', () => {
    const laterOf0230 = Temporal.Instant.from('2026-10-25T01:30:00Z');

    const { occurrences } = expandRecurrence({
      rule: 'FREQ=DAILY;COUNT=2',
      timeZone: 'Europe/Berlin',
      firstStart: laterOf0230,
      durationMs: 30 * 60_000,
      horizon: Temporal.Instant.from('2027-12-31T23:59:59Z'),
    });

    expect(occurrences.map(({ start }) => start.toString())).to.deep.equal([
      '2026-10-25T01:30:00Z',
      '2026-10-26T01:30:00Z',
    ]);
  });
});
