import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { timeJson } from '../../../src/api/booking/booking-json.js';
import { utcTextOfEpochMs } from '../../../src/domain/booking/booking-time.js';

describe('times in answers', () => {
  it('UTC text is what Temporal writes for the instant', () => {
    for (const ms of [0, 1500, 1050, 1001, Date.parse('2027-03-28T01:00:00Z'), Date.parse('2027-12-31T23:59:59.999Z'), -1]) {
      expect(utcTextOfEpochMs(ms)).to.equal(Temporal.Instant.fromEpochMilliseconds(ms).toString());
    }
  });

  it('zoned text is what Temporal writes, on both sides of every 2027 DST change, in any order', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];
    const start = Date.parse('2027-01-01T00:00:00Z');
    const instants = Array.from({ length: 2000 }, (_, i) => start + ((i * 7919) % 2000) * 4 * 3_600_000 + (i % 3) * 500);
    instants.push(Date.parse('2027-03-28T00:59:59.999Z'), Date.parse('2027-03-28T01:00:00Z'), Date.parse('2027-10-31T00:59:59Z'), Date.parse('2027-10-31T01:00:00Z'));
    for (const zone of zones) {
      for (const ms of instants) {
        const expected = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toString({ timeZoneName: 'never' });
        expect(timeJson(utcTextOfEpochMs(ms), zone), `${zone} ${ms}`).to.equal(expected);
      }
    }
  });

  it('falls back to Temporal for offsets that are not whole minutes', () => {
    const utc = '1850-03-28T12:00:00Z';
    expect(timeJson(utc, 'Europe/Berlin')).to.equal(Temporal.Instant.from(utc).toZonedDateTimeISO('Europe/Berlin').toString({ timeZoneName: 'never' }));
  });
});
