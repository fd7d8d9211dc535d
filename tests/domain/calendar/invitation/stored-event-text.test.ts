import { expect } from 'chai';
import fc from 'fast-check';
import ICAL from 'ical.js';
import type { RoomAnswer } from '../../../../src/domain/calendar/invitation/calendar-event-events.js';
import { parseInvitation } from '../../../../src/domain/calendar/invitation/parse-invitation.js';
import { storedEventText } from '../../../../src/domain/calendar/invitation/stored-event-text.js';
import { unfoldContentLines } from '../../../../src/domain/calendar/fold-content-lines.js';
import { clientFixtures, eventText, fixture, plain, roomAddress } from './invitation-fixtures.js';

const bookingId = '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77';
const accepted: RoomAnswer = { address: roomAddress, resourceId: '7c1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77', bookingId, partstat: 'ACCEPTED', scheduleStatus: '1.2', requestStatus: '2.0;Success' };

/** The ATTENDEE properties of each VEVENT, as ical.js reads the stored text. */
function attendeesOf(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text) as [string, [], []]);
  return calendar.getAllSubcomponents('vevent').map((event) =>
    event.getAllProperties('attendee').map((p) => ({ address: String(p.getFirstValue()), parameters: p.toJSON()[1] as Record<string, string> })),
  );
}

const octets = (line: string) => new TextEncoder().encode(line).length;

describe('the stored event: the organizer text with the rooms answers (contract §26)', () => {
  it('gives the room its PARTSTAT, SCHEDULE-STATUS and X-BOOKING-ID without RSVP, the other attendees 5.3, the organizer nothing', () => {
    const [attendees] = attendeesOf(storedEventText(fixture('thunderbird.ics'), [accepted]));
    expect(attendees).to.deep.equal([
      { address: 'mailto:ann@example.com', parameters: { cn: 'Ann Example', partstat: 'ACCEPTED', role: 'CHAIR' } },
      { address: roomAddress, parameters: { partstat: 'ACCEPTED', role: 'REQ-PARTICIPANT', cutype: 'ROOM', 'schedule-status': '1.2', 'x-booking-id': bookingId } },
      { address: 'mailto:bob@example.com', parameters: { rsvp: 'TRUE', partstat: 'NEEDS-ACTION', role: 'REQ-PARTICIPANT', cn: 'Bob', 'schedule-status': '5.3' } },
    ]);
  });

  it('answers the room in the master and in every overridden instance', () => {
    const declined: RoomAnswer = { ...accepted, bookingId: null, partstat: 'DECLINED', requestStatus: '4.0;Event conflict. Date-time is busy.;conflict' };
    const events = attendeesOf(storedEventText(fixture('davx5-weekly.ics'), [declined]));
    expect(events.map((attendees) => attendees.find((a) => a.address === roomAddress)?.parameters)).to.deep.equal([
      { cn: 'Room Tycho', cutype: 'ROOM', partstat: 'DECLINED', 'schedule-status': '1.2' },
      { cn: 'Room Tycho', cutype: 'ROOM', partstat: 'DECLINED', 'schedule-status': '1.2' },
      undefined,
    ]);
  });

  it('compares addresses without case, and keeps them as written', () => {
    const [attendees] = attendeesOf(storedEventText(fixture('apple.ics'), [{ ...accepted, address: 'urn:uuid:7c1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77', partstat: 'TENTATIVE' }]));
    expect(attendees![1]).to.deep.equal({
      address: 'urn:uuid:7C1C2A9E-5B7D-4C1E-9A4F-2D6B8E0C1A77',
      parameters: { cn: 'Room Galileo', cutype: 'ROOM', partstat: 'TENTATIVE', role: 'REQ-PARTICIPANT', 'schedule-status': '1.2', 'x-booking-id': bookingId },
    });
  });

  it('leaves the attendees a client schedules itself (SCHEDULE-AGENT=CLIENT) as written', () => {
    const [attendees] = attendeesOf(storedEventText(fixture('evolution-floating.ics'), []));
    expect(attendees!.map((a) => a.parameters['schedule-status'])).to.deep.equal(['5.3', undefined]);
  });

  it('takes back an X-BOOKING-ID the client sent when the room holds no booking any more', () => {
    const source = eventText('DTSTART:20270105T090000Z', 'ORGANIZER:mailto:ann@example.com', `ATTENDEE;PARTSTAT=ACCEPTED;SCHEDULE-STATUS=1.2;X-BOOKING-ID=${bookingId}:${roomAddress}`);
    const [attendees] = attendeesOf(storedEventText(source, [{ ...accepted, bookingId: null, partstat: 'DECLINED', scheduleStatus: '3.8' }]));
    expect(attendees![0]!.parameters).to.deep.equal({ partstat: 'DECLINED', 'schedule-status': '3.8' });
  });

  it('is the same bytes for the same text and answers: CRLF lines of at most 75 octets', () => {
    const first = storedEventText(fixture('apple.ics'), [accepted]);
    expect(storedEventText(fixture('apple.ics'), [accepted])).to.equal(first);
    expect(first.endsWith('\r\n')).to.equal(true);
    expect(first.replaceAll('\r\n', '')).not.to.match(/[\r\n]/);
    expect(first.split('\r\n').every((line) => octets(line) <= 75)).to.equal(true);
  });

  it('keeps every other line of the organizer text (values and parameters as ical.js writes them)', () => {
    const source = fixture('thunderbird.ics');
    const lines = (text: string) => unfoldContentLines(text).split('\r\n').filter((line) => !line.startsWith('ATTENDEE') && !line.startsWith('TRIGGER'));
    expect(lines(storedEventText(source, [accepted]))).to.deep.equal(lines(source));
  });

  it('never changes the UID, the times, the recurrence or the attendees of any client text, and renders its own output again unchanged', () => {
    const answer = fc.record({
      upper: fc.boolean(),
      bookingId: fc.option(fc.uuid(), { nil: null }),
      partstat: fc.constantFrom<RoomAnswer['partstat']>('ACCEPTED', 'TENTATIVE', 'DECLINED'),
      scheduleStatus: fc.constantFrom<RoomAnswer['scheduleStatus']>('1.2', '3.7', '3.8'),
    });
    fc.assert(
      fc.property(fc.constantFrom(...clientFixtures), fc.array(answer, { maxLength: 3 }), (name, drawn) => {
        const source = fixture(name);
        const invitation = parseInvitation(source);
        const rooms = drawn.flatMap((a, i): RoomAnswer[] => {
          const attendee = invitation.attendees[i];
          if (!attendee) return [];
          const address = a.upper ? attendee.address.toUpperCase() : attendee.address;
          return [{ address, resourceId: null, bookingId: a.bookingId, partstat: a.partstat, scheduleStatus: a.scheduleStatus, requestStatus: '2.0;Success' }];
        });
        const stored = storedEventText(source, rooms);
        expect(plain(parseInvitation(stored))).to.deep.equal(plain(invitation));
        expect(storedEventText(stored, rooms)).to.equal(stored);
      }),
      { numRuns: 200 },
    );
  });
});
