import { expect } from 'chai';
import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { replyText, type ReplySource } from '../../../../src/domain/calendar/invitation/reply-text.js';
import { unfoldContentLines } from '../../../../src/domain/calendar/fold-content-lines.js';
import { roomAddress } from './invitation-fixtures.js';

const reply: ReplySource = {
  uid: '5a6c4f3e-2b1d-4c8e-9f7a-0e1d2c3b4a59',
  sequence: 3,
  summary: 'Sprint planning',
  organizer: 'mailto:ann@example.com',
  attendee: roomAddress,
  partstat: 'DECLINED',
  requestStatus: '4.0;Event conflict. Date-time is busy.;conflict',
  start: Temporal.Instant.from('2027-01-05T08:00:00Z'),
  end: Temporal.Instant.from('2027-01-05T09:00:00Z'),
  stamp: Temporal.Instant.from('2027-01-04T10:16:22.123Z'),
};

const veventOf = (text: string) => {
  const calendar = new ICAL.Component(ICAL.parse(text) as [string, [], []]);
  expect(calendar.getFirstPropertyValue('method')).to.equal('REPLY');
  const events = calendar.getAllSubcomponents('vevent');
  expect(events).to.have.length(1);
  return events[0]!;
};

describe("a room's REPLY to the organizer (contract §26)", () => {
  it('is a METHOD:REPLY with the event, the room as its one ATTENDEE and its REQUEST-STATUS, times in UTC', () => {
    const text = replyText(reply);
    expect(unfoldContentLines(text).split('\r\n')).to.deep.equal([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//workspace-booking//CalDAV//EN',
      'METHOD:REPLY',
      'BEGIN:VEVENT',
      'UID:5a6c4f3e-2b1d-4c8e-9f7a-0e1d2c3b4a59',
      'DTSTAMP:20270104T101622Z',
      'SEQUENCE:3',
      'DTSTART:20270105T080000Z',
      'DTEND:20270105T090000Z',
      'SUMMARY:Sprint planning',
      'ORGANIZER:mailto:ann@example.com',
      `ATTENDEE;PARTSTAT=DECLINED:${roomAddress}`,
      'REQUEST-STATUS:4.0;Event conflict. Date-time is busy.;conflict',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ]);
  });

  it('keeps REQUEST-STATUS whole as ical.js (Thunderbird) reads it, for every status a room gives', () => {
    for (const [status, parts] of [
      ['2.0;Success', ['2.0', 'Success']],
      ['4.0;Event conflict. Date-time is busy.;units', ['4.0', 'Event conflict. Date-time is busy.', 'units']],
      ['3.1;Invalid property value;maxDurationMinutes', ['3.1', 'Invalid property value', 'maxDurationMinutes']],
      ['3.8;No authority', ['3.8', 'No authority']],
    ] as const) {
      const event = veventOf(replyText({ ...reply, requestStatus: status }));
      expect(event.getFirstProperty('request-status')!.toJSON()[3]).to.deep.equal(parts);
      expect(unfoldContentLines(replyText({ ...reply, requestStatus: status }))).to.include(`\r\nREQUEST-STATUS:${status}\r\n`);
    }
  });

  it('answers one instance of a recurring event by its RECURRENCE-ID', () => {
    const event = veventOf(replyText({ ...reply, recurrenceId: Temporal.Instant.from('2027-01-12T08:00:00Z') }));
    expect(event.getFirstPropertyValue('recurrence-id')!.toString()).to.equal('2027-01-12T08:00:00Z');
  });

  it('says in a COMMENT why a room withdrew a booking later, when given one', () => {
    expect(veventOf(replyText({ ...reply, comment: 'room is needed; sorry' })).getFirstPropertyValue('comment')).to.equal('room is needed; sorry');
    expect(veventOf(replyText(reply)).hasProperty('comment')).to.equal(false);
  });

  it('escapes the SUMMARY, folds long lines at 75 octets with CRLF, and is the same bytes for the same arguments', () => {
    const summary = `Quarterly review; budget, hiring \\ and Zürich ${'ü'.repeat(60)}`;
    const text = replyText({ ...reply, summary });
    expect(replyText({ ...reply, summary })).to.equal(text);
    expect(text.split('\r\n').every((line) => new TextEncoder().encode(line).length <= 75)).to.equal(true);
    expect(text.replaceAll('\r\n', '')).not.to.match(/[\r\n]/);
    expect(veventOf(text).getFirstPropertyValue('summary')).to.equal(summary);
    expect(veventOf(text).getFirstProperty('attendee')!.getParameter('partstat')).to.equal('DECLINED');
  });
});
