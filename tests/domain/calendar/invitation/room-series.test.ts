import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { parseInvitation } from '../../../../src/domain/calendar/invitation/parse-invitation.js';
import { roomSeriesOf } from '../../../../src/domain/calendar/invitation/room-series.js';
import { expandRecurrence } from '../../../../src/domain/recurrence/index.js';
import { calendarText, eventText, fixture, plain, roomAddress, vevent } from './invitation-fixtures.js';

const horizon = Temporal.Instant.from('2028-01-01T00:00:00Z');

/** The occurrences §6 books of a room series (the expansion seriesOccurrences runs). */
function occurrenceStarts(series: NonNullable<ReturnType<typeof roomSeriesOf>>): string[] {
  const { occurrences } = expandRecurrence({
    rule: series.recurrenceRule,
    timeZone: series.timeZone,
    firstStart: series.startTime,
    durationMs: series.endTime.epochMilliseconds - series.startTime.epochMilliseconds,
    horizon,
    exdates: series.exdates,
  });
  return occurrences.map((o) => o.start.toString());
}

describe('a recurring event as the §6 series of each room (contract §26)', () => {
  it('DAVx5: the weekly rule in the event zone across the change to summer time, EXDATEs and the cancelled instance left out, the moved one told apart', () => {
    const series = roomSeriesOf(parseInvitation(fixture('davx5-weekly.ics')), roomAddress.toUpperCase(), 'Europe/Berlin')!;
    expect(plain(series)).to.deep.equal({
      startTime: '2027-02-01T14:30:00Z',
      endTime: '2027-02-01T15:00:00Z',
      recurrenceRule: 'FREQ=WEEKLY;UNTIL=20270426T133000Z;BYDAY=MO',
      timeZone: 'America/New_York',
      exdates: ['2027-02-15T14:30:00Z', '2027-02-22T14:30:00Z', '2027-03-29T13:30:00Z'],
      moved: [{ recurrenceId: '2027-03-15T13:30:00Z', start: '2027-03-16T15:00:00Z', end: '2027-03-16T15:30:00Z' }],
      added: [],
    });
    expect(occurrenceStarts(series)).to.deep.equal([
      '2027-02-01T14:30:00Z',
      '2027-02-08T14:30:00Z',
      '2027-03-01T14:30:00Z',
      '2027-03-08T14:30:00Z',
      '2027-03-15T13:30:00Z',
      '2027-03-22T13:30:00Z',
      '2027-04-05T13:30:00Z',
      '2027-04-12T13:30:00Z',
      '2027-04-19T13:30:00Z',
      '2027-04-26T13:30:00Z',
    ]);
  });

  it('leaves out the instances the room is not invited to', () => {
    const text = calendarText(
      vevent('UID:e', 'DTSTART:20270105T090000Z', 'DTEND:20270105T100000Z', 'RRULE:FREQ=DAILY;COUNT=3', `ATTENDEE:${roomAddress}`),
      vevent('UID:e', 'RECURRENCE-ID:20270106T090000Z', 'DTSTART:20270106T090000Z', 'DTEND:20270106T100000Z', 'ATTENDEE:mailto:bob@example.com'),
      vevent('UID:e', 'RECURRENCE-ID:20270107T090000Z', 'DTSTART:20270107T090000Z', 'DTEND:20270107T100000Z', `ATTENDEE:${roomAddress}`),
    );
    const series = roomSeriesOf(parseInvitation(text), roomAddress, 'Europe/Berlin')!;
    expect(plain(series)).to.deep.include({ timeZone: 'UTC', exdates: ['2027-01-06T09:00:00Z'], moved: [] });
    expect(occurrenceStarts(series)).to.deep.equal(['2027-01-05T09:00:00Z', '2027-01-07T09:00:00Z']);
  });

  it('all-day days and their UNTIL date in the room zone', () => {
    const series = roomSeriesOf(parseInvitation(eventText('DTSTART;VALUE=DATE:20270327', 'RRULE:FREQ=DAILY;UNTIL=20270331')), roomAddress, 'Europe/Berlin')!;
    expect(plain(series)).to.deep.include({ startTime: '2027-03-26T23:00:00Z', endTime: '2027-03-27T23:00:00Z', recurrenceRule: 'FREQ=DAILY;UNTIL=20270331T215959Z', timeZone: 'Europe/Berlin' });
    expect(occurrenceStarts(series)).to.deep.equal(['2027-03-26T23:00:00Z', '2027-03-27T23:00:00Z', '2027-03-28T22:00:00Z', '2027-03-29T22:00:00Z', '2027-03-30T22:00:00Z']);
  });

  it('floating times and a local UNTIL in the room zone; a rule without end stays so, for §6 to end at the horizon', () => {
    const floating = roomSeriesOf(parseInvitation(eventText('DTSTART:20270322T093000', 'DTEND:20270322T103000', 'RRULE:FREQ=WEEKLY;UNTIL=20270405T093000')), roomAddress, 'Europe/Berlin')!;
    expect(plain(floating)).to.deep.include({ startTime: '2027-03-22T08:30:00Z', recurrenceRule: 'FREQ=WEEKLY;UNTIL=20270405T073000Z', timeZone: 'Europe/Berlin' });
    expect(occurrenceStarts(floating)).to.deep.equal(['2027-03-22T08:30:00Z', '2027-03-29T07:30:00Z', '2027-04-05T07:30:00Z']);
    const endless = roomSeriesOf(parseInvitation(eventText('DTSTART;TZID=Europe/Berlin:20270105T090000', 'RRULE:FREQ=WEEKLY;BYDAY=TU')), roomAddress, 'UTC')!;
    expect(endless.recurrenceRule).to.equal('FREQ=WEEKLY;BYDAY=TU');
  });

  it('RDATEs are occurrences beside the rule; an event without RRULE is no series', () => {
    const series = roomSeriesOf(parseInvitation(eventText('DTSTART:20270105T090000Z', 'DTEND:20270105T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=2', 'RDATE:20270108T140000Z')), roomAddress, 'UTC')!;
    expect(plain(series.added)).to.deep.equal([{ start: '2027-01-08T14:00:00Z', end: '2027-01-08T15:00:00Z' }]);
    expect(roomSeriesOf(parseInvitation(fixture('thunderbird.ics')), roomAddress, 'UTC')).to.equal(null);
    expect(roomSeriesOf(parseInvitation(eventText('DTSTART:20270105T090000Z', 'RDATE:20270108T090000Z')), roomAddress, 'UTC')).to.equal(null);
  });
});
