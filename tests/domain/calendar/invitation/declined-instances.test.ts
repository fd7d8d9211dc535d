import { expect } from 'chai';
import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import type { RoomAnswer } from '../../../../src/domain/calendar/invitation/calendar-event-events.js';
import { instantOf } from '../../../../src/domain/calendar/invitation/event-time.js';
import { parseInvitation } from '../../../../src/domain/calendar/invitation/parse-invitation.js';
import { storedEventText } from '../../../../src/domain/calendar/invitation/stored-event-text.js';
import { calendarText, fixture, plain, roomAddress, vevent } from './invitation-fixtures.js';

const otherRoom = 'mailto:9a2b3c4d-1e2f-4a5b-8c9d-0e1f2a3b4c5d@resources.invalid';
const answer = (address: string, bookingId: string): RoomAnswer => ({ address, resourceId: null, bookingId, partstat: 'ACCEPTED', scheduleStatus: '1.2', requestStatus: '2.0;Success' });
const at = (text: string) => Temporal.Instant.from(text);

/** Each instance's RECURRENCE-ID and the PARTSTAT and X-BOOKING-ID of the room there. */
function instances(text: string, address: string) {
  const calendar = new ICAL.Component(ICAL.parse(text) as [string, [], []]);
  return calendar
    .getAllSubcomponents('vevent')
    .filter((event) => event.hasProperty('recurrence-id'))
    .map((event) => {
      const room = event.getAllProperties('attendee').find((p) => String(p.getFirstValue()).toLowerCase() === address.toLowerCase());
      return { recurrenceId: event.getFirstProperty('recurrence-id')!.toICALString(), partstat: room?.getParameter('partstat'), bookingId: room?.getParameter('x-booking-id') };
    });
}

describe('occurrences a room refused in a series it booked (contract §26, schedulingConflictsAllowed)', () => {
  it('adds an instance per refused occurrence, in the form of DTSTART, with the room DECLINED and the other rooms as they answered', () => {
    const source = calendarText(
      vevent('UID:e', 'DTSTART;TZID=Europe/Berlin:20270322T090000', 'DTEND;TZID=Europe/Berlin:20270322T100000', 'RRULE:FREQ=WEEKLY;COUNT=4', 'ORGANIZER:mailto:ann@example.com', `ATTENDEE:${roomAddress}`, `ATTENDEE:${otherRoom}`),
    );
    const text = storedEventText(source, [answer(roomAddress, 'b1'), answer(otherRoom, 'b2')], [{ address: roomAddress, resourceTimeZone: 'UTC', starts: [at('2027-03-29T07:00:00Z')] }]);
    expect(instances(text, roomAddress)).to.deep.equal([{ recurrenceId: 'RECURRENCE-ID;TZID=Europe/Berlin:20270329T090000', partstat: 'DECLINED', bookingId: undefined }]);
    expect(instances(text, otherRoom)).to.deep.equal([{ recurrenceId: 'RECURRENCE-ID;TZID=Europe/Berlin:20270329T090000', partstat: 'ACCEPTED', bookingId: 'b2' }]);
    const invitation = parseInvitation(text);
    const [instance] = invitation.recurrence!.overrides;
    expect([instantOf(instance!.start, 'UTC').toString(), instantOf(instance!.end, 'UTC').toString()]).to.deep.equal(['2027-03-29T07:00:00Z', '2027-03-29T08:00:00Z']);
    expect(invitation.recurrence!.rrule).to.equal('FREQ=WEEKLY;COUNT=4');
  });

  it('answers in place an instance the organizer already overrides, and a second refusal of one occurrence reuses its instance', () => {
    const source = fixture('davx5-weekly.ics');
    const moved = at('2027-03-15T13:30:00Z');
    const text = storedEventText(source, [answer(roomAddress, 'b1')], [
      { address: roomAddress, resourceTimeZone: 'America/New_York', starts: [moved, at('2027-03-01T14:30:00Z')] },
      { address: roomAddress.toUpperCase(), resourceTimeZone: 'America/New_York', starts: [at('2027-03-01T14:30:00Z')] },
    ]);
    expect(instances(text, roomAddress).map((i) => [i.recurrenceId, i.partstat])).to.deep.equal([
      ['RECURRENCE-ID;TZID=America/New_York:20270315T093000', 'DECLINED'],
      ['RECURRENCE-ID;TZID=America/New_York:20270329T093000', undefined],
      ['RECURRENCE-ID;TZID=America/New_York:20270301T093000', 'DECLINED'],
    ]);
    expect(parseInvitation(text).recurrence!.overrides).to.have.length(3);
  });

  it('days and floating times in the room zone, UTC times in UTC', () => {
    const day = calendarText(vevent('UID:d', 'DTSTART;VALUE=DATE:20270327', 'RRULE:FREQ=DAILY;COUNT=3', `ATTENDEE:${roomAddress}`));
    const dayText = storedEventText(day, [answer(roomAddress, 'b1')], [{ address: roomAddress, resourceTimeZone: 'Europe/Berlin', starts: [at('2027-03-27T23:00:00Z')] }]);
    expect(instances(dayText, roomAddress)[0]!.recurrenceId).to.equal('RECURRENCE-ID;VALUE=DATE:20270328');
    expect(plain(parseInvitation(dayText).recurrence!.overrides[0]!.end)).to.deep.equal({ kind: 'date', date: '2027-03-29' });

    const floating = calendarText(vevent('UID:f', 'DTSTART:20270322T093000', 'DTEND:20270322T103000', 'RRULE:FREQ=DAILY;COUNT=3', `ATTENDEE:${roomAddress}`));
    const floatingText = storedEventText(floating, [answer(roomAddress, 'b1')], [{ address: roomAddress, resourceTimeZone: 'Europe/Berlin', starts: [at('2027-03-23T08:30:00Z')] }]);
    expect(instances(floatingText, roomAddress)[0]!.recurrenceId).to.equal('RECURRENCE-ID:20270323T093000');

    const utc = calendarText(vevent('UID:u', 'DTSTART:20270322T093000Z', 'DURATION:PT45M', 'RRULE:FREQ=DAILY;COUNT=3', `ATTENDEE:${roomAddress}`));
    const utcText = storedEventText(utc, [answer(roomAddress, 'b1')], [{ address: roomAddress, resourceTimeZone: 'Europe/Berlin', starts: [at('2027-03-24T09:30:00Z')] }]);
    expect(instances(utcText, roomAddress)[0]!.recurrenceId).to.equal('RECURRENCE-ID:20270324T093000Z');
    expect(instantOf(parseInvitation(utcText).recurrence!.overrides[0]!.end, 'UTC').toString()).to.equal('2027-03-24T10:15:00Z');
  });

  it('a TZID of the body alone: the wall clock of its VTIMEZONE', () => {
    const source = fixture('outlook.ics')
      .replaceAll('W. Europe Standard Time', 'Customized Time Zone')
      .replace('SEQUENCE:0', 'SEQUENCE:0\r\nRRULE:FREQ=DAILY;COUNT=3');
    const text = storedEventText(source, [], [{ address: 'mailto:9a2b3c4d-1e2f-4a5b-8c9d-0e1f2a3b4c5d@resources.invalid', resourceTimeZone: 'UTC', starts: [at('2027-03-31T08:00:00Z')] }]);
    expect(instances(text, otherRoom)).to.deep.equal([{ recurrenceId: 'RECURRENCE-ID;TZID=Customized Time Zone:20270331T100000', partstat: 'DECLINED', bookingId: undefined }]);
  });

  it('is the same bytes for the same arguments', () => {
    const declined = [{ address: roomAddress, resourceTimeZone: 'America/New_York', starts: [at('2027-03-01T14:30:00Z')] }];
    expect(storedEventText(fixture('davx5-weekly.ics'), [answer(roomAddress, 'b1')], declined)).to.equal(storedEventText(fixture('davx5-weekly.ics'), [answer(roomAddress, 'b1')], declined));
  });
});
