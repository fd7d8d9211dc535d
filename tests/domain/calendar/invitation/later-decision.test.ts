import { expect } from 'chai';
import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import type { Booking, BookingStatus } from '../../../../src/domain/booking/booking.js';
import type { RoomAnswer } from '../../../../src/domain/calendar/invitation/calendar-event-events.js';
import { decideLaterDecision, laterAnswer, laterSeriesAnswer, partstatOfStatus, type StoredEvent } from '../../../../src/domain/calendar/invitation/later-decision.js';
import { storedEventText } from '../../../../src/domain/calendar/invitation/stored-event-text.js';

const bookingId = '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77';

const room = (overrides: Partial<RoomAnswer> = {}): RoomAnswer => ({
  address: 'mailto:room-a@resources.invalid',
  resourceId: '7c1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77',
  bookingId,
  partstat: 'TENTATIVE',
  scheduleStatus: '1.2',
  requestStatus: '2.0;Success',
  ...overrides,
});

const declinedElsewhere = room({ address: 'mailto:room-b@resources.invalid', resourceId: 'b', bookingId: null, partstat: 'DECLINED', requestStatus: '4.0;Event conflict. Date-time is busy.;conflict' });

const booking = (status: BookingStatus, reason: string | null = null) => ({ id: bookingId, status, reason });

describe('a room\'s answer to a decision made after the event was written (contract §26)', () => {
  it('answers what the booking\'s status implies: pending tentative, confirmed or completed accepted, cancelled or no-show declined', () => {
    const implied = (['pending', 'confirmed', 'completed', 'cancelled', 'no_show'] as const).map(partstatOfStatus);
    expect(implied).to.deep.equal(['TENTATIVE', 'ACCEPTED', 'ACCEPTED', 'DECLINED', 'DECLINED']);
  });

  it('an approver\'s confirm turns the tentative room accepted, keeping its booking, the other rooms untouched', () => {
    const later = laterAnswer([declinedElsewhere, room()], booking('confirmed'));
    expect(later).to.deep.equal({
      rooms: [declinedElsewhere, room({ partstat: 'ACCEPTED' })],
      answer: room({ partstat: 'ACCEPTED' }),
      comment: null,
    });
  });

  it('a cancel declines the room, which holds no booking any more, with the cancel\'s reason as the comment and 2.0 as the request status', () => {
    const later = laterAnswer([room({ partstat: 'ACCEPTED' }), declinedElsewhere], booking('cancelled', 'Room closed for repairs'));
    expect(later?.answer).to.deep.equal(room({ partstat: 'DECLINED', bookingId: null, requestStatus: '2.0;Success' }));
    expect(later?.rooms).to.deep.equal([later?.answer, declinedElsewhere]);
    expect(later?.comment).to.equal('Room closed for repairs');
  });

  it('says why when the record has no reason: a no-show, a cancel without one', () => {
    expect(laterAnswer([room({ partstat: 'ACCEPTED' })], booking('no_show'))?.comment).to.equal('no-show: not checked in within the grace period');
    expect(laterAnswer([room()], booking('cancelled', '  '))?.comment).to.equal('cancelled');
  });

  it('changes nothing when the stored answer already agrees: a repeat, or the event\'s own write', () => {
    expect(laterAnswer([room({ partstat: 'ACCEPTED' })], booking('confirmed'))).to.equal(null);
    expect(laterAnswer([room({ partstat: 'ACCEPTED' })], booking('completed'))).to.equal(null);
    expect(laterAnswer([room()], booking('pending'))).to.equal(null);
  });

  it('changes nothing when no room holds the booking: withdrawn already, or left the event', () => {
    expect(laterAnswer([room({ partstat: 'DECLINED', bookingId: null })], booking('cancelled'))).to.equal(null);
    expect(laterAnswer([declinedElsewhere], booking('confirmed'))).to.equal(null);
    expect(laterAnswer([], booking('cancelled'))).to.equal(null);
  });
});

describe('the events of a decision made after the event was written (contract §26)', () => {
  const sourceText = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//tests//EN',
    'BEGIN:VEVENT',
    'UID:event-1',
    'DTSTAMP:20270101T000000Z',
    'SEQUENCE:2',
    'DTSTART:20270105T090000Z',
    'DTEND:20270105T100000Z',
    'SUMMARY:Planning',
    'ORGANIZER:mailto:alice@example.com',
    'ATTENDEE;CUTYPE=ROOM;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:room-a@resources.invalid',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  const stored: StoredEvent = {
    workspace: 'w',
    owner: 'alice',
    name: 'planning.ics',
    uid: 'event-1',
    organizerEmail: 'alice@example.com',
    sourceText,
    sourceHash: 'hash',
    scheduleTag: 'tag-1',
    rooms: [room({ partstat: 'ACCEPTED' })],
  };
  const now = Temporal.Instant.from('2027-01-05T09:15:00Z');
  const decided = (status: BookingStatus, extra: Partial<Booking> = {}) =>
    ({ id: bookingId, status, reason: null, startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T10:00:00Z', confirmedBy: 'alice', cancelledBy: null, ...extra }) as Booking;
  const replyEvent = (text: string) => new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!;

  it('stores the event again with the new answer under the same Schedule-Tag, and delivers the room\'s REPLY with the reason', () => {
    const events = decideLaterDecision(stored, decided('cancelled', { cancelledBy: 'carol', reason: 'room is needed' }), now, () => 'reply-1');
    expect(events.map((e) => e.type)).to.deep.equal(['CalendarEventStored', 'CalendarReplyDelivered']);
    const [storedAgain, delivered] = events as [Extract<(typeof events)[number], { type: 'CalendarEventStored' }>, Extract<(typeof events)[number], { type: 'CalendarReplyDelivered' }>];
    const declined = room({ partstat: 'DECLINED', bookingId: null });
    expect(storedAgain.data).to.deep.equal({ ...stored, text: storedEventText(sourceText, [declined]), rooms: [declined], at: '2027-01-05T09:15:00Z', by: 'carol' });
    expect(delivered.data).to.include({ workspace: 'w', owner: 'alice', name: 'planning.ics', replyId: 'reply-1', uid: 'event-1', attendee: 'mailto:room-a@resources.invalid', requestStatus: '2.0;Success' });

    const reply = replyEvent(delivered.data.text);
    expect(reply.getFirstProperty('attendee')!.getParameter('partstat')).to.equal('DECLINED');
    expect(reply.getFirstPropertyValue('comment')).to.equal('room is needed');
    expect(reply.getFirstPropertyValue('sequence')).to.equal(2);
    expect(String(reply.getFirstPropertyValue('dtstart'))).to.equal('2027-01-05T09:00:00Z');
  });

  it('an acceptance gives no COMMENT; the same decision again gives no events', () => {
    const tentative = { ...stored, rooms: [room()] };
    const [, delivered] = decideLaterDecision(tentative, decided('confirmed', { confirmedBy: 'carol' }), now, () => 'reply-2');
    const reply = replyEvent(delivered!.data.text);
    expect(reply.getFirstProperty('attendee')!.getParameter('partstat')).to.equal('ACCEPTED');
    expect(reply.getFirstPropertyValue('comment')).to.equal(null);
    expect(decideLaterDecision(stored, decided('confirmed'), now, () => 'reply-3')).to.deep.equal([]);
  });
});

describe('a room\'s series answer to a decision on one occurrence (contract §26)', () => {
  const parent = { id: bookingId, status: 'pending' as BookingStatus, reason: null };
  const occurrence = (status: BookingStatus, startTime: string) => ({ status, startTime, reason: status === 'cancelled' ? 'Off that week' : null });
  const standing = (statuses: BookingStatus[], parentStatus: BookingStatus = 'pending') => ({
    parent: { ...parent, status: parentStatus },
    occurrences: statuses.map((status, i) => occurrence(status, `2027-01-${String(5 + 7 * i).padStart(2, '0')}T09:00:00Z`)),
    resourceTimeZone: 'Europe/Berlin',
  });

  it('stays TENTATIVE while an occurrence waits, and turns ACCEPTED when none does', () => {
    expect(laterSeriesAnswer([room()], standing(['confirmed', 'pending']), occurrence('confirmed', '2027-01-05T09:00:00Z'))).to.equal(null);
    expect(laterSeriesAnswer([room()], standing(['confirmed', 'confirmed']), occurrence('confirmed', '2027-01-12T09:00:00Z'))?.answer).to.deep.include({ partstat: 'ACCEPTED', bookingId });
  });

  it('declines a withdrawn occurrence as an instance, keeping the room\'s series, with the cancel\'s reason', () => {
    const later = laterSeriesAnswer([room({ partstat: 'ACCEPTED' })], standing(['confirmed', 'cancelled']), occurrence('cancelled', '2027-01-12T09:00:00Z'))!;
    expect(later.answer).to.deep.include({ partstat: 'ACCEPTED', bookingId, declined: { resourceTimeZone: 'Europe/Berlin', starts: ['2027-01-12T09:00:00Z'] } });
    expect(later.comment).to.equal('Off that week');
  });

  it('declines the room once no occurrence is left or the series itself is cancelled', () => {
    expect(laterSeriesAnswer([room({ partstat: 'ACCEPTED' })], standing(['cancelled', 'cancelled']), occurrence('cancelled', '2027-01-12T09:00:00Z'))?.answer).to.deep.include({ partstat: 'DECLINED', bookingId: null });
    expect(laterSeriesAnswer([room({ partstat: 'ACCEPTED' })], standing(['confirmed'], 'cancelled'), occurrence('cancelled', '2027-01-05T09:00:00Z'))?.answer).to.deep.include({ partstat: 'DECLINED', bookingId: null });
  });
});
